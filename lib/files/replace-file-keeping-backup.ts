import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, chmod, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

export type ReplacedFile = { file: string; backup: string };

/**
 * Replaces a file's text so that a reader sees either the old or the new file, never half of
 * one: the new text goes to a temporary file in the same folder (same file system), then a
 * rename. The old text is kept beside it as `<file>.bak-<timestamp>`, owner-only because it may
 * hold the very secret being removed. The file keeps its permissions; a symlink keeps pointing at
 * the rewritten target. A read-only file is refused (EACCES), not replaced.
 */
export async function replaceFileKeepingBackup(filePath: string, newText: string, now: Date = new Date()): Promise<ReplacedFile> {
  const file = await realpath(filePath);
  const mode = (await stat(file)).mode & 0o7777;
  // A rename would replace a file its owner made read-only (the folder is what it needs): the
  // file's own mode says whether it may change, for root too.
  if ((mode & 0o222) === 0) throw Object.assign(new Error(`${file} is read-only`), { code: "EACCES" });
  await access(file, constants.W_OK);
  const backup = await writeBackup(file, await readFile(file), now);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  try {
    await writeFile(temp, newText, { mode: 0o600, flag: "wx" });
    await chmod(temp, mode); // after writing: the umask must not narrow or widen it
    await rename(temp, file);
  } catch (error) {
    // Nothing changed, so no backup of it is left behind either.
    await Promise.all([rm(temp, { force: true }), rm(backup, { force: true })]);
    throw error;
  }
  return { file, backup };
}

/**
 * `<file>.bak-<time>`, or `-2`, `-3`, … after it when the same second already has one: "wx"
 * never overwrites an earlier backup, and a second change in the same second (install, then
 * uninstall) still gets its own.
 */
async function writeBackup(file: string, content: Buffer, now: Date): Promise<string> {
  const stem = `${file}.bak-${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
  for (let attempt = 1; ; attempt++) {
    const backup = attempt === 1 ? stem : `${stem}-${attempt}`;
    try {
      await writeFile(backup, content, { mode: 0o600, flag: "wx" });
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 100) throw error;
    }
  }
}
