import { mkdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import { writeFileAtomically } from "../files/write-file-atomically";
import { parseJsonOrNull } from "../parse-json";

/**
 * What `teammem hooks install` did to each settings file it edited: the hooks it added, and the
 * `hooks` object and event lists (`hooks.SessionStart`) it created to hold them. A settings file
 * does not tell a hook or a `"hooks": {}` its owner wrote from one install made, and uninstall
 * must leave the first and remove the second. Kept in teammem's config folder rather than beside
 * the settings (a checkout's `.claude/` would show a new file to git), keyed by the settings
 * file's real path.
 */
const RECORD_FILE = "installed-hooks.json";
// A bare list is a record written before installs noted the hooks they added: JSON paths only.
const RecordEntry = z.union([z.object({ created: z.array(z.string()), added: z.array(z.string()) }), z.array(z.string())]);
const InstallRecordFile = z.record(z.string(), RecordEntry);
type InstallRecordFile = z.infer<typeof InstallRecordFile>;

export type InstallRecord = {
  /** JSON paths install created: `hooks`, `hooks.SessionStart`. */
  created: string[];
  /** Hooks install added, as `Event: command`; null when the record predates this (then unknown). */
  added: string[] | null;
};

/** What install did to `settingsFile`, or null when no install recorded it (an older teammem, a hand edit). */
export async function readInstallRecord(configDir: string, settingsFile: string): Promise<InstallRecord | null> {
  const entry = (await readRecordFile(configDir))[await recordKey(settingsFile)];
  if (entry === undefined) return null;
  return Array.isArray(entry) ? { created: entry, added: null } : entry;
}

/** Records what installs did to `settingsFile`, or with null forgets the file (after an uninstall). */
export async function writeInstallRecord(configDir: string, settingsFile: string, record: { created: string[]; added: string[] } | null): Promise<void> {
  const recordFile = await readRecordFile(configDir);
  const key = await recordKey(settingsFile);
  if (record === null) delete recordFile[key];
  else recordFile[key] = { created: [...new Set(record.created)], added: [...new Set(record.added)] };
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  await writeFileAtomically(path.join(configDir, RECORD_FILE), `${JSON.stringify(recordFile, null, 2)}\n`);
}

async function readRecordFile(configDir: string): Promise<InstallRecordFile> {
  const text = await readFile(path.join(configDir, RECORD_FILE), "utf8").catch(() => null);
  // Missing or damaged, it records nothing: uninstall then removes teammem's hooks and what their removal empties, as before records were kept.
  const parsed = InstallRecordFile.safeParse(text === null ? {} : parseJsonOrNull(text));
  return parsed.success ? { ...parsed.data } : {};
}

/** The same file whichever way it was named (a linked ~/.claude, a relative --local path). */
async function recordKey(settingsFile: string): Promise<string> {
  return realpath(settingsFile).catch(() => path.resolve(settingsFile));
}
