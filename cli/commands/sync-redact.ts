import { lstat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { replaceFileKeepingBackup } from "../../lib/files/replace-file-keeping-backup";
import { NotRegularFileError, readRegularFile } from "../../lib/memdir/read-regular-file";
import { maskSecretsForDisplay } from "../../lib/secrets/mask-secret-ranges";
import { redactSecrets } from "../../lib/secrets/redact-secrets";
import { formatLineDiff } from "../format-line-diff";
import { EXIT, type Output } from "../output";

export type RedactTeamFileOptions = {
  file: string;
  isConfirmed: boolean;
  output: Output;
  /** This checkout's team/ folder (null when it cannot be found): FILE may be the name sync listed, relative to it. */
  findTeamDir: () => Promise<string | null>;
};

/** What `--json` prints: one document, the masked diff and whether the file was changed. */
type RedactionResult = { file: string; secrets: number; unbounded: number; diff: string[]; isWritten: boolean; backup: string | null };

/**
 * `teammem sync --redact FILE`: the redaction a file needs before sync may propose it, shown as a
 * diff first (the old lines with masked previews: the secret itself is never printed), applied
 * after a yes (or --yes), atomically with a backup beside the file. FILE is a path, or the name
 * sync listed under skipped (relative to team/). With --json nothing is asked: only --yes applies.
 */
export async function redactTeamFile({ file, isConfirmed, output, findTeamDir }: RedactTeamFileOptions): Promise<number> {
  const target = await resolveTarget(file, findTeamDir);
  // A memory file only: a link is not followed, a named pipe never opened (it would block).
  const read = await readRegularFile(target.path).catch((error: unknown) => (error instanceof NotRegularFileError ? error.message : "cannot be read"));
  if (typeof read === "string") return output.error(`teammem sync: ${file}: ${read}${target.tried.join() === file ? "" : ` (tried ${target.tried.join(" and ")})`}.`), EXIT.usage;
  const shown = target.path;
  const text = read.bytes.toString("utf8");
  const redaction = redactSecrets(text);
  const result: RedactionResult = { file: shown, secrets: redaction.replaced.length, unbounded: redaction.blocked.length, diff: [], isWritten: false, backup: null };
  if (redaction.replaced.length + redaction.blocked.length === 0) return output.isJson ? output.json(result) : output.print(`${shown}: no secret found; nothing to redact.`), EXIT.ok;
  if (redaction.blocked.length > 0) {
    if (output.isJson) output.json(result);
    else output.error(`teammem sync: ${shown} not changed: ${redaction.blocked.length} secret(s) could not be bounded with confidence; remove them by hand.`);
    return EXIT.findings;
  }
  result.diff = formatLineDiff({ label: shown, before: maskSecretsForDisplay(text), after: redaction.text });
  if (!output.isJson) output.print(...result.diff);
  if (!isConfirmed && (output.isJson || !(await ask(`Apply this redaction to ${shown}? [y/N] `)))) {
    if (output.isJson) output.json(result);
    else output.print("Not changed. Run again with --yes to apply it without asking.");
    return EXIT.findings;
  }
  let written;
  try {
    written = await replaceFileKeepingBackup(target.path, redaction.text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    output.error(`teammem sync: could not rewrite ${shown} (${code === "EACCES" || code === "EPERM" ? "permission denied: the file or its folder is read-only" : (code ?? "write failed")}); it is unchanged.`);
    return EXIT.findings;
  }
  if (output.isJson) return output.json({ ...result, isWritten: true, backup: written.backup }), EXIT.ok;
  output.print(`Redacted ${redaction.replaced.length} secret(s) in ${shown}; the old text is in ${written.backup} (owner-only). Run teammem sync to propose it.`);
  return EXIT.ok;
}

/**
 * FILE as given when something is there; else, for a relative name, the same name in team/ (sync
 * lists skipped files relative to it). `tried` names every path looked at, for the error.
 */
async function resolveTarget(file: string, findTeamDir: () => Promise<string | null>): Promise<{ path: string; tried: string[] }> {
  const given = path.resolve(file);
  if (path.isAbsolute(file) || (await lstat(given).then(() => true, () => false))) return { path: file, tried: [given] };
  const teamDir = await findTeamDir();
  if (teamDir === null) return { path: file, tried: [given] };
  const inTeam = path.join(teamDir, file);
  if (!(await lstat(inTeam).then(() => true, () => false))) return { path: file, tried: [given, inTeam] };
  return { path: inTeam, tried: [given, inTeam] };
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
