export type IndexLink = {
  /** 1-based line number in MEMORY.md. */
  line: number;
  title: string;
  /** Link target as written, decoded, without `./` or `#anchor`; relative to the memory directory. */
  file: string;
  hook: string | null;
};

// I1: `- [Title](file.md) — hook`. Other bullets, dashes and `:` before the hook are tolerated
// because people and models write all of them. The link's destination is CommonMark's: in
// `<…>`, or without spaces, with balanced parentheses (`api(v2).md`) and backslash escapes; an
// optional title (`"…"`, `'…'` or `(…)`) may follow it.
const DESTINATION = String.raw`<[^>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+`;
const TITLE = String.raw`(?:\s+(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?`;
const ENTRY = new RegExp(String.raw`^\s*[-*+]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(${DESTINATION})${TITLE}\s*\)\s*(?:(?:—|–|-|:)\s*)?(.*)$`);

/**
 * I1, I4: the memory links of a MEMORY.md, with their line numbers. Lines inside the index's
 * frontmatter or HTML comments are not read (C7: Claude Code never loads them), and links to
 * anything but a local `.md` file (web pages, anchors) are not memories.
 */
export function parseIndex(text: string): IndexLink[] {
  const links: IndexLink[] = [];
  blankHiddenText(text)
    .split("\n")
    .forEach((lineText, index) => {
      const link = parseIndexLine(lineText);
      if (link) links.push({ ...link, line: index + 1 });
    });
  return links;
}

export function parseIndexLine(lineText: string): Omit<IndexLink, "line"> | null {
  const match = ENTRY.exec(lineText.replace(/\r$/, ""));
  if (!match) return null;
  const file = normaliseTarget(match[2] ?? "");
  if (!file) return null;
  const hook = (match[3] ?? "").trim();
  return { title: (match[1] ?? "").replace(/\\(.)/g, "$1"), file, hook: hook === "" ? null : hook };
}

function normaliseTarget(rawTarget: string): string | null {
  const isAngled = rawTarget.startsWith("<");
  const target = (isAngled ? rawTarget.slice(1, -1) : rawTarget.replace(/\\(.)/g, "$1")).replace(/#.*$/, "");
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || !target.endsWith(".md")) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    decoded = target; // a stray `%` is part of the name
  }
  return decoded.replace(/^(\.\/)+/, "");
}

/**
 * Replaces the frontmatter and HTML comments with blank lines, keeping line numbers, so that
 * what is left is exactly what Claude Code shows the model (C7).
 */
export function blankHiddenText(text: string): string {
  const blank = (span: string): string => span.replace(/[^\n]/g, "");
  const withoutFrontmatter = text.replace(/^\uFEFF?---[ \t]*\r?\n[\s\S]*?\n---[ \t]*\r?(?=\n|$)/, blank);
  return withoutFrontmatter.replace(/<!--[\s\S]*?-->/g, blank);
}
