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
