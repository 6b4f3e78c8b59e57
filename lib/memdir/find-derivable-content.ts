export type DerivableKind = "file-line" | "commit-hash" | "stack-trace" | "code-block";

export type DerivableContent = { kind: DerivableKind; line: number; excerpt: string };

/** Fenced code longer than this restates code rather than recording a decision. */
export const MAX_CODE_BLOCK_LINES = 10;

const FILE_LINE = /(?<![\w/.@-])[\w./-]*\w\.[A-Za-z]{1,5}:\d+(?::\d+)?\b/;
// `db.internal.acme:5432`, `api.example.com:443`: a host and its port, not a file and a line.
const HOST_PORT = /^[\w-]+(?:\.[\w-]+)+:\d+$/;
const HOST_SUFFIX = /\.(?:com|net|org|io|dev|internal|local|lan|corp|cloud|example|test|localhost)$/i;
// 7-40 hex digits with at least one digit and one letter, not part of a word or a UUID.
const COMMIT_HASH = /(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/;
const STACK_FRAME = /^\s*at\s+\S.*:\d+(?::\d+)?\)?\s*$|^\s*File\s+".+",\s+line\s+\d+/;
const TRACEBACK = /^Traceback \(most recent call last\):/;

/**
 * "One rule above all" and F6: things the repository already records — file:line citations,
 * commit hashes, stack traces, long code blocks — drift from reality once stored as a memory.
 * One hit per kind, at its first line.
 */
export function findDerivableContent(text: string): DerivableContent[] {
  const hits = new Map<DerivableKind, DerivableContent>();
  const note = (kind: DerivableKind, line: number, excerpt: string): void => {
    if (!hits.has(kind)) hits.set(kind, { kind, line, excerpt: excerpt.trim().slice(0, 80) });
  };
  const lines = text.split("\n");
  let fenceStart = -1;
  let stackFrames = 0;
  lines.forEach((lineText, index) => {
    if (/^\s*(```|~~~)/.test(lineText)) {
      if (fenceStart === -1) fenceStart = index;
      else {
        if (index - fenceStart - 1 > MAX_CODE_BLOCK_LINES) note("code-block", fenceStart + 1, lines[fenceStart] ?? "");
        fenceStart = -1;
      }
      return;
    }
    const fileLine = FILE_LINE.exec(lineText);
    if (fileLine && !isHostAndPort(fileLine[0])) note("file-line", index + 1, fileLine[0]);
    const hash = COMMIT_HASH.exec(lineText);
    if (hash) note("commit-hash", index + 1, hash[0]);
    stackFrames = STACK_FRAME.test(lineText) ? stackFrames + 1 : 0;
    if (TRACEBACK.test(lineText) || stackFrames === 2) note("stack-trace", index + 1 - (stackFrames === 2 ? 1 : 0), lineText);
  });
  return [...hits.values()].sort((a, b) => a.line - b.line);
}

function isHostAndPort(citation: string): boolean {
  return HOST_PORT.test(citation) && HOST_SUFFIX.test(citation.slice(0, citation.lastIndexOf(":")));
}
