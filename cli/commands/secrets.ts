import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { NotRegularFileError } from "../../lib/memdir/read-regular-file";
import { replaceFileKeepingBackup } from "../../lib/files/replace-file-keeping-backup";
import { redactSecrets } from "../../lib/secrets/redact-secrets";
import { scanSecrets } from "../../lib/secrets/scan-secrets";
import type { Command } from "../command";
import { EXIT, linesOf, type Output } from "../output";

const HELP = `teammem secrets — find credentials in a memory (or any text) before it is shared

Usage: teammem secrets [FILE|-] [--redact [--write]] [--json]

Reads FILE, or standard input with "-" or no argument. Prints each finding with its kind, line,
column and a redacted preview; the secret itself is never printed. --json gives
{"findings": [{"kind","start","end","line","column","preview"}]} with start/end as character
offsets. --redact prints the text with every finding replaced by [REDACTED:<kind>].
--redact --write rewrites FILE in place instead (atomically, keeping its permissions) and keeps
the original as FILE.bak-<timestamp> (mode 0600: delete it once checked, it holds the secret).
It refuses when a secret cannot be bounded with confidence, and says what is still found after.
Exit 1 when anything is found (with --write: anything still there after the rewrite), 0 when
clean, 2 when the file cannot be read.`;

export const secretsCommand: Command = {
  name: "secrets",
  summary: "find (and optionally redact) credentials in a file or stdin",
  help: HELP,
  options: { redact: { type: "boolean" }, write: { type: "boolean" } },
  async run({ positionals, flags, output }) {
    if (positionals.length > 1) {
      output.error("teammem secrets: give one FILE (or - for stdin).", "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const source = positionals[0] ?? "-";
    if (flags.write && (!flags.redact || source === "-")) {
      output.error("teammem secrets: --write goes with --redact and a FILE (it rewrites that file).", "", ...linesOf(HELP));
      return EXIT.usage;
    }
    let text: string;
    try {
      text = source === "-" ? await readStdin() : await readNamedFile(source);
    } catch (error) {
      const why = error instanceof NotRegularFileError ? `: it is not a regular file (${error.kind})` : "";
      output.error(`teammem secrets: cannot read ${source}${why}.`);
      return EXIT.usage;
    }
    // The server's own scanner: the CLI finds exactly what a proposal's checks find.
    const findings = scanSecrets(text);
    if (flags.redact && flags.write) return writeRedacted(source, text, output);
    if (flags.redact) {
      const redaction = redactSecrets(text);
      if (output.isJson) output.json({ text: redaction.text, replaced: redaction.replaced, blocked: redaction.blocked });
      else process.stdout.write(redaction.text);
      if (redaction.blocked.length > 0) output.error(`teammem secrets: ${redaction.blocked.length} secret(s) could not be bounded with confidence; remove them by hand.`);
      return findings.length > 0 || redaction.replaced.length > 0 ? EXIT.findings : EXIT.ok;
    }
    if (output.isJson) output.json({ findings });
    else if (findings.length === 0) output.print("No secrets found.");
    else for (const finding of findings) output.print(`${source}:${finding.line}:${finding.column}  ${finding.kind}  ${finding.preview}`);
    return findings.length > 0 ? EXIT.findings : EXIT.ok;
  },
};

/** --redact --write: the file itself is fixed; only positions, kinds and previews are printed. */
async function writeRedacted(file: string, text: string, output: Output): Promise<number> {
  const redaction = redactSecrets(text);
  if (redaction.blocked.length > 0) {
    // The replacement of an unbounded secret may have eaten real text: not written (see redactSecrets).
    for (const finding of redaction.blocked) output.error(`${file}:${finding.line}:${finding.column}  ${finding.kind}  ${finding.preview}  (end unclear)`);
    output.error(`teammem secrets: ${file} not changed: ${redaction.blocked.length} secret(s) could not be bounded with confidence; remove them by hand.`);
    return EXIT.findings;
  }
  const remaining = scanSecrets(redaction.text);
  let written = null;
  if (redaction.replaced.length > 0) {
    try {
      written = await replaceFileKeepingBackup(file, redaction.text);
    } catch (error) {
      output.error(`teammem secrets: could not rewrite ${file} (${(error as NodeJS.ErrnoException).code ?? "write failed"}); it is unchanged.`);
      return EXIT.findings;
    }
  }
  if (output.isJson) output.json({ file, backup: written?.backup ?? null, replaced: redaction.replaced, remaining });
  else {
    for (const finding of redaction.replaced) output.print(`${file}:${finding.line}:${finding.column}  ${finding.kind}  ${finding.preview}  redacted`);
    for (const finding of remaining) output.print(`${file}:${finding.line}:${finding.column}  ${finding.kind}  ${finding.preview}  still there: remove it by hand`);
    if (written) output.print(`Rewrote ${file}; the original is in ${written.backup} (mode 0600): delete it once you have checked the result.`);
    else if (remaining.length === 0) output.print("No secrets found.");
  }
  return remaining.length > 0 ? EXIT.findings : EXIT.ok;
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/**
 * The file named on the command line, through a link if it is one (the user named it), but only
 * a regular file: opened without waiting (a named pipe would block for good) and checked on the
 * descriptor before anything is read.
 */
async function readNamedFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(info);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
