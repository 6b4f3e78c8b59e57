import { escapeControlCharacters } from "../lib/memdir/escape-control-characters";

/**
 * How a command's result leaves the process: human text on stdout, or one JSON document. Human
 * text is given line by line: each argument of `print` and `error` is one line, and any control
 * or bidirectional character in it (a newline too) is printed as an escape such as `\x1b`. File
 * names, memory fields and a reviewer's reasons come from other people: none of them may steer
 * the terminal or add a line. JSON escapes control characters itself.
 */
export type Output = {
  isJson: boolean;
  print(...lines: string[]): void;
  json(value: unknown): void;
  error(...lines: string[]): void;
};

export function createOutput(isJson: boolean): Output {
  return {
    isJson,
    print: (...lines) => writeStdout(formatLines(lines)),
    json: (value) => writeStdout(JSON.stringify(value, null, 2) + "\n"),
    error: (...lines) => process.stderr.write(formatLines(lines)),
  };
}

let isStdoutClosed = false;

/** Writes to stdout unless its reader has gone (then the rest of the output has nowhere to go). */
function writeStdout(text: string): void {
  if (!isStdoutClosed) process.stdout.write(text);
}

/** The lines as printed: each escaped on its own, each ended by a newline. */
export function formatLines(lines: readonly string[]): string {
  return lines.map((line) => `${escapeControlCharacters(line)}\n`).join("");
}

/**
 * Text the CLI wrote itself (help, usage) cut at its own line breaks, for print and error. Only
 * such text may be cut this way: a value from a file or a server stays one line.
 */
export function linesOf(text: string): string[] {
  return text.split("\n");
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/**
 * `teammem scan DIR | head -1`: once the reader has what it wanted and closes the pipe, the next
 * write fails with EPIPE. That is the reader's choice, not a failure: the command writes nothing
 * more, finishes, and exits with its own code (0 for a listing cut short, 1 for `lint` that found
 * errors: `set -o pipefail` scripts must not see a failed check pass), instead of Node's default
 * of a stack trace for an unhandled stream error. Any other write error (a full disk) ends the
 * command with one line saying so, and exit 1.
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (isStdoutClosed) return; // writes queued before the close fail too
    isStdoutClosed = true;
    if (error.code === "EPIPE") return;
    process.stderr.write(`teammem: could not write the output (${error.code ?? error.message}).\n`);
    process.exit(EXIT.findings);
  });
}
