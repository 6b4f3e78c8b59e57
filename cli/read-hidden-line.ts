/**
 * Reads one line from a terminal without showing it, as `sudo` and `ssh` ask for a password: the
 * token would otherwise stay in the scrollback, a screen share or a recording. Enter ends the
 * line, backspace takes a character back, Ctrl-C stops (exit 130), Ctrl-D on an empty line ends
 * it empty. The prompt goes to stderr, so stdout stays the command's own.
 */
export function readHiddenLine(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding("utf8");
  return new Promise((resolve) => {
    let line = "";
    const finish = (value: string) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") return finish(line);
        if (character === "\u0003") {
          finish("");
          process.exit(130);
        }
        if (character === "\u0004") {
          if (line === "") return finish("");
          continue;
        }
        if (character === "\u007f" || character === "\b") line = line.slice(0, -1);
        else if (character >= " ") line += character;
      }
    };
    input.on("data", onData);
  });
}
