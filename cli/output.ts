/** How a command's result leaves the process: human text on stdout, or one JSON document. */
export type Output = {
  isJson: boolean;
  print(text: string): void;
  json(value: unknown): void;
  error(text: string): void;
};

export function createOutput(isJson: boolean): Output {
  return {
    isJson,
    print: (text) => process.stdout.write(text + "\n"),
    json: (value) => process.stdout.write(JSON.stringify(value, null, 2) + "\n"),
    error: (text) => process.stderr.write(text + "\n"),
  };
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/**
 * `teammem scan DIR | head -1`: once the reader has what it wanted and closes the pipe, the next
 * write fails with EPIPE. That is the reader's choice, not a failure: stop at once, silently,
 * with exit 0 (what `set -o pipefail` scripts expect from a listing cut short), instead of
 * Node's default of a stack trace for an unhandled stream error.
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT.ok);
    throw error;
  });
}
