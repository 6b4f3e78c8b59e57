import { FRONTMATTER_MAX_LINES, normaliseText, parseFrontmatter, parseHeaderOfFirstLines, parseMemoryHeader, type FrontmatterStatus } from "./frontmatter";
import { findDerivableContent, type DerivableKind } from "./find-derivable-content";
import { findRelativeDates } from "./find-relative-dates";
import type { LintFinding } from "./lint-finding";
import { splitFrontmatter } from "./split-frontmatter";
import { findBidiControl } from "./find-bidi-control";

export type ValidateMemoryOptions = {
  /** Relative path with `/`, used in the findings. */
  file: string;
  /** The whole file (or as much as was read). */
  text: string;
  /** The file's mtime: F4 resolves relative dates against it. */
  mtime: Date;
};

// Messages are read by people (CLI, dashboard, review): they say what is wrong and why it
// matters, in plain words; the rule name and docs/memory-format.md carry the requirement id.
const BROKEN_FRONTMATTER: Partial<Record<FrontmatterStatus, string>> = {
  none: "The file does not start with a `---` frontmatter block",
  unclosed: `The frontmatter is not closed within the first ${FRONTMATTER_MAX_LINES} lines (or their first 64 KB), and a scan reads no further`,
  "invalid-yaml": "The frontmatter is not valid YAML, even with its values quoted",
  "not-object": "The frontmatter is not a set of `key: value` fields",
  "alias-limit": "The frontmatter uses so many YAML aliases that it is refused rather than expanded",
  "too-large": "The frontmatter is too large to read",
};

// F5: descriptions made only of these words say nothing recall could select on.
const GENERIC_WORDS = new Set(
  "a an and the of for about on to in my our user users user's preference preferences note notes misc miscellaneous general info information project projects feedback reference references stuff things thing memory memories various details context settings todo todos important remember misc. etc".split(" "),
);

/** F1-F6, C4: what is wrong with one memory file, most serious first. */
export function validateMemory(options: ValidateMemoryOptions): LintFinding[] {
  const { file } = options;
  const text = normaliseText(options.text);
  const findings: LintFinding[] = [];
  const add = (finding: Omit<LintFinding, "file">): void => void findings.push({ file, ...finding });
  // C4: Claude Code reads the fields from the first 30 lines only.
  const header = parseHeaderOfFirstLines(text);
  const duplicateKey = header.status === "invalid-yaml" ? findDuplicateKey(text) : null;
  const broken = BROKEN_FRONTMATTER[header.status];
  if (duplicateKey) add({ rule: "frontmatter-invalid", severity: "error", message: `The frontmatter gives \`${duplicateKey}\` more than once, and YAML allows each key only once, so agents get no name, description or type for this memory.`, fix: `Keep one \`${duplicateKey}:\` line and remove the others.` });
  else if (broken) add({ rule: "frontmatter-invalid", severity: "error", message: `${broken}, so agents get no name, description or type for this memory.`, fix: header.status === "alias-limit" ? "Write each value out instead of referring to it with `*alias`: a memory needs only `name:`, `description:` and `type:`." : "Start the file with `---`, then `name:`, `description:` and `type:` lines, then `---`." });
  if (header.status === "retried") add({ rule: "frontmatter-invalid", severity: "warning", message: "A frontmatter value holds YAML-special characters (such as `: ` or ` #`) and only parses once quoted; other YAML readers may read it differently.", fix: "Put the value in double quotes." });
  if (!broken) {
    // Only a missing name or description can be a commented-out one.
    checkFields(header, header.name && header.description ? new Set() : keysWithCommentValue(text), add);
  }
  const body = parseFrontmatter(text).body;
  if (header.type === "feedback" || header.type === "project") checkStructure(body, add);
  if (header.type === "project") checkDates(text, options.mtime, add);
  const bidi = findBidiControl(text);
  if (bidi) {
    add({ rule: "hidden-text", severity: "error", line: bidi.line, message: `The text holds a bidirectional control character (${bidi.codePoint}), which shows the words around it in another order than an agent reads them.`, fix: "Delete the character; write right-to-left words as they are, without controls." });
  }
  for (const hit of findDerivableContent(body)) {
    add({ rule: "derivable-content", severity: "warning", line: bodyLine(text, body, hit.line), message: `${DERIVABLE_TEXT[hit.kind]} (${hit.excerpt}): the repository already records this, and a copy in memory drifts out of date.`, fix: "Keep only what the code cannot tell: the decision, the reason, the surprise." });
  }
  return findings;
}

type Add = (finding: Omit<LintFinding, "file">) => void;

function checkFields(header: ReturnType<typeof parseMemoryHeader>, commentedKeys: Set<string>, add: Add): void {
  const nameNotText = describeNonText(header.fields.name);
  if (nameNotText) add({ rule: "missing-name", severity: "warning", message: `The \`name\` must be text, but YAML reads it as ${nameNotText}, so indexes and the dashboard fall back to the file name.`, fix: "Write the name as a short plain title after `name:` (in double quotes if it holds `{`, `[` or `: `)." });
  else if (!header.name && commentedKeys.has("name")) add({ rule: "missing-name", severity: "warning", message: `${commentValueText("name")}, so the name is empty and indexes and the dashboard fall back to the file name.`, fix: commentValueFix("name") });
  else if (!header.name) add({ rule: "missing-name", severity: "warning", message: "The frontmatter has no `name`, so indexes and the dashboard fall back to the file name.", fix: "Add a `name:` line with a short title." });
  const rawType = header.fields.type;
  if (rawType === undefined || rawType === null || rawType === "") {
    add({ rule: "missing-type", severity: "warning", message: "The frontmatter has no `type`; the memory still loads, but cannot be filed as user, feedback, project or reference.", fix: "Add `type:` with one of user, feedback, project, reference." });
  } else if (!header.type) {
    add({ rule: "unknown-type", severity: "error", message: `Type ${JSON.stringify(rawType)} is not one of user, feedback, project, reference, so the memory counts as untyped.`, fix: "Use exactly one of the four types." });
  }
  const notText = describeNonText(header.fields.description);
  if (notText) {
    add({ rule: "missing-description", severity: "error", message: `The \`description\` must be text, but YAML reads it as ${notText}, so recall has nothing to select this memory on.`, fix: "Write the description as one plain sentence after `description:` (in double quotes if it holds `{`, `[` or `: `)." });
  } else if (!header.description && commentedKeys.has("description")) {
    add({ rule: "missing-description", severity: "error", message: `${commentValueText("description")}, so the description is empty and recall has nothing to select this memory on.`, fix: commentValueFix("description") });
  } else if (!header.description) {
    add({ rule: "missing-description", severity: "error", message: "The frontmatter has no `description`, so recall has nothing to select this memory on.", fix: "Add a one-sentence `description:` that says specifically what the memory is about." });
  } else if (isVague(header.description)) {
    add({ rule: "vague-description", severity: "warning", message: `The description "${header.description}" is too generic for recall to pick this memory for the right question.`, fix: "Say what the memory is specifically about, e.g. \"user does not want a summary at the end of each response\"." });
  }
}

/**
 * What a field that is present but not text reads as (`description: {a: 1}` is a mapping), or
 * null when it is text or absent: "has no description" would send the writer looking for a
 * missing line.
 */
function describeNonText(value: unknown): string | null {
  if (value === undefined || value === null || typeof value === "string") return null;
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  if (typeof value === "object") return "a mapping (`{…}` or indented `key: value` lines)";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  return "something other than text";
}

/** The top-level lines of the frontmatter a scan reads (C4: within the first 30 lines), or none. */
function frontmatterLines(text: string): string[] {
  const block = splitFrontmatter(text.split("\n").slice(0, FRONTMATTER_MAX_LINES).join("\n"));
  return block.kind === "closed" ? block.yaml.split("\n") : [];
}

// `description: #1 priority` is a key followed by a YAML comment, so its value is empty. Saying
// so beats "has no description", which sends the writer looking for a line they can see.
const COMMENT_VALUE = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+#/;

function commentValueText(key: string): string {
  return `The \`${key}\` value starts with \`#\`, which YAML reads as the start of a comment`;
}

function commentValueFix(key: string): string {
  return `Put the value in double quotes: \`${key}: "#…"\`.`;
}

function keysWithCommentValue(text: string): Set<string> {
  const keys = new Set<string>();
  for (const line of frontmatterLines(text)) {
    const key = COMMENT_VALUE.exec(line)?.[1];
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

// YAML refuses a key given twice, and the usual cause is an edit that added a line instead of
// changing one: naming the key says where to look. Top-level `key:` lines only.
const TOP_LEVEL_KEY = /^([A-Za-z_][\w-]*)[ \t]*:/;

function findDuplicateKey(text: string): string | null {
  const seen = new Set<string>();
  for (const line of frontmatterLines(text)) {
    const key = TOP_LEVEL_KEY.exec(line)?.[1];
    if (key === undefined) continue;
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

export function isVague(description: string): boolean {
  const words = description.toLowerCase().match(/[\p{L}\p{N}'.]+/gu) ?? [];
  if (words.length < 3) return true;
  return words.every((word) => GENERIC_WORDS.has(word));
}

function checkStructure(body: string, add: Add): void {
  if (!/^\s*(?:[-*]\s+)?\*\*Why:?\*\*/im.test(body)) {
    add({ rule: "missing-why", severity: "warning", message: "The body has no line starting `**Why:**`; without the reason an agent cannot judge edge cases.", fix: "Add a `**Why:**` line with the reason or the incident behind it." });
  }
  if (!/^\s*(?:[-*]\s+)?\*\*How to apply:?\*\*/im.test(body)) {
    add({ rule: "missing-how-to-apply", severity: "warning", message: "The body has no line starting `**How to apply:**`, so an agent cannot tell when the guidance applies.", fix: "Add a `**How to apply:**` line saying when and where the guidance applies." });
  }
}

function checkDates(text: string, mtime: Date, add: Add): void {
  for (const found of findRelativeDates(text, mtime)) {
    add({ rule: "relative-date", severity: "warning", line: found.line, message: `"${found.phrase}" is a relative date; read weeks later, it points at the wrong day.`, fix: `Replace "${found.phrase}" with ${found.date} (computed from the file's modification date, ${mtime.toISOString().slice(0, 10)}).` });
  }
}

const DERIVABLE_TEXT: Record<DerivableKind, string> = {
  "file-line": "A file:line citation",
  "commit-hash": "A commit hash",
  "stack-trace": "A stack trace",
  "code-block": "A long code block",
};

function bodyLine(text: string, body: string, lineInBody: number): number {
  const headLines = text.length - body.length === 0 ? 0 : text.slice(0, text.length - body.length).split("\n").length - 1;
  return headLines + lineInBody;
}
