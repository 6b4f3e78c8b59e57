import { createInterface } from "node:readline/promises";
import { replaceFileKeepingBackup } from "../../lib/files/replace-file-keeping-backup";
import { NotRegularFileError, readRegularFile } from "../../lib/memdir/read-regular-file";
import { maskSecretsForDisplay } from "../../lib/secrets/mask-secret-ranges";
import { redactSecrets } from "../../lib/secrets/redact-secrets";
import { formatLineDiff } from "../format-line-diff";
import { EXIT, type Output } from "../output";

export type RedactTeamFileOptions = { file: string; isConfirmed: boolean; output: Output };

/**
 * `teammem sync --redact FILE`: the redaction a file needs before sync may propose it, shown as a
 * diff first (the old lines with masked previews: the secret itself is never printed), applied
 * after a yes (or --yes), atomically with a backup beside the file.
 */
export async function redactTeamFile({ file, isConfirmed, output }: RedactTeamFileOptions): Promise<number> {
  // A memory file only: a link is not followed, a named pipe never opened (it would block).
  const read = await readRegularFile(file).catch((error: unknown) => (error instanceof NotRegularFileError ? error.message : "cannot be read"));
  if (typeof read === "string") return output.error(`teammem sync: ${file}: ${read}.`), EXIT.usage;
  const text = read.bytes.toString("utf8");
  const redaction = redactSecrets(text);
  if (redaction.replaced.length + redaction.blocked.length === 0) return output.print(`${file}: no secret found; nothing to redact.`), EXIT.ok;
  if (redaction.blocked.length > 0) {
    output.error(`teammem sync: ${file} not changed: ${redaction.blocked.length} secret(s) could not be bounded with confidence; remove them by hand.`);
    return EXIT.findings;
  }
  output.print(...formatLineDiff({ label: file, before: maskSecretsForDisplay(text), after: redaction.text }));
  if (!isConfirmed && !(await ask(`Apply this redaction to ${file}? [y/N] `))) {
    output.print("Not changed. Run again with --yes to apply it without asking.");
    return EXIT.findings;
  }
  const written = await replaceFileKeepingBackup(file, redaction.text);
  output.print(`Redacted ${redaction.replaced.length} secret(s) in ${file}; the old text is in ${written.backup} (owner-only). Run teammem sync to propose it.`);
  return EXIT.ok;
}

async function ask(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}
