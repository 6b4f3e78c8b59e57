import { mkdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import { writeFileAtomically } from "../files/write-file-atomically";
import { parseJsonOrNull } from "../parse-json";

/**
 * What `teammem hooks install` created in each settings file it edited: the `hooks` object and
 * the event lists (`hooks.SessionStart`) that were not there before. A settings file does not
 * tell `"hooks": {}` written by its owner from one install made, and uninstall must leave the
 * first and remove the second. Kept in teammem's config folder rather than beside the settings
 * (a checkout's `.claude/` would show a new file to git), keyed by the settings file's real path.
 */
const RECORD_FILE = "installed-hooks.json";
const InstallRecord = z.record(z.string(), z.array(z.string()));
type InstallRecord = z.infer<typeof InstallRecord>;

/** What install created in `settingsFile` (JSON paths), or null when no install recorded it (an older teammem, a hand edit). */
export async function readCreatedByInstall(configDir: string, settingsFile: string): Promise<string[] | null> {
  const record = await readRecord(configDir);
  return record[await recordKey(settingsFile)] ?? null;
}

/** Records what installs created in `settingsFile`, or with null forgets the file (after an uninstall). */
export async function recordCreatedByInstall(configDir: string, settingsFile: string, created: string[] | null): Promise<void> {
  const record = await readRecord(configDir);
  const key = await recordKey(settingsFile);
  if (created === null) delete record[key];
  else record[key] = [...new Set(created)];
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  await writeFileAtomically(path.join(configDir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

async function readRecord(configDir: string): Promise<InstallRecord> {
  const text = await readFile(path.join(configDir, RECORD_FILE), "utf8").catch(() => null);
  // Missing or damaged, it records nothing: uninstall then removes what its removal empties, as before records were kept.
  const parsed = InstallRecord.safeParse(text === null ? {} : parseJsonOrNull(text));
  return parsed.success ? { ...parsed.data } : {};
}

/** The same file whichever way it was named (a linked ~/.claude, a relative --local path). */
async function recordKey(settingsFile: string): Promise<string> {
  return realpath(settingsFile).catch(() => path.resolve(settingsFile));
}
