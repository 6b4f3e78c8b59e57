import { mkdir, readFile, realpath, unlink } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../files/write-file-atomically";
import { AppError } from "../errors";
import { replaceFileKeepingBackup } from "../files/replace-file-keeping-backup";
import { addTeammemHooks, keepOwnContainers, listTeammemHooks, removeTeammemHooks, type SettingsEdit } from "./edit-settings-hooks";
import { readInstallRecord, writeInstallRecord } from "./hooks-install-record";
import { hookLabel, TEAMMEM_HOOKS } from "./teammem-hooks";

export type HooksFileEdit = {
  file: string;
  /** `Event: command` of each hook added or removed; empty when the file already was as asked. */
  changes: string[];
  /** Uninstall: teammem's hooks the file held before install added any, left where they are. */
  kept: string[];
  /** The previous file, kept beside it; null when nothing was written or the file is new. */
  backup: string | null;
  wrote: boolean;
  /** Uninstall deleted the file: install had created it, and it held nothing else. */
  removedFile?: boolean;
};

export type EditHooksFileOptions = {
  file: string;
  action: "install" | "uninstall";
  /** teammem's config folder: where install records what it added and created, for uninstall to remove exactly that. */
  recordDir: string;
  dryRun?: boolean;
  now?: Date;
};

/** The install record's mark for a settings file install created (not a JSON path). */
const SETTINGS_FILE_ITSELF = "$file";

/**
 * Installs or removes teammem's hooks in one Claude Code settings file. The file is parsed
 * first: text that is not a JSON object is refused and left untouched (a settings file also
 * holds other tools' hooks, permissions, env). A change is written atomically with the previous
 * file kept as `<file>.bak-<time>`; a file already as asked is not rewritten. Uninstall removes
 * the hooks install added, and of the settings' structure only what install created.
 */
export async function editHooksFile(options: EditHooksFileOptions): Promise<HooksFileEdit> {
  const { file } = options;
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw new AppError("INVALID_INPUT", `Cannot read ${file} (${error.code ?? "unknown error"}). Nothing was changed.`);
  });
  if (text === null && options.action === "uninstall") return { file, changes: [], kept: [], backup: null, wrote: false };
  const settings = text === null || text.trim() === "" ? {} : parseSettings(text, file);
  const recorded = await readInstallRecord(options.recordDir, file);
  const present = listTeammemHooks(settings, TEAMMEM_HOOKS, file);
  // A record from before installs noted their hooks: the hooks present are taken as install's, as uninstall then did.
  const addedBefore = recorded === null ? [] : (recorded.added ?? present).filter((hook) => present.includes(hook));
  if (options.action === "install") {
    const addition = addTeammemHooks(settings, TEAMMEM_HOOKS, file);
    const written = await writeEdit(options, text, addition);
    // Hooks the file held with no install on record are the user's own: noted as not added, even
    // when this install adds nothing, so uninstall leaves them. An install that adds one hook back
    // keeps what an earlier one added and created for the other.
    if (written.wrote || (!options.dryRun && (recorded === null || recorded.added === null))) {
      // The file itself, when install made it (and while nothing else wrote it since: kept on record).
      const madeFile = text === null || (recorded?.created.includes(SETTINGS_FILE_ITSELF) ?? false) ? [SETTINGS_FILE_ITSELF] : [];
      const created = [...keepOwnContainers(settings, TEAMMEM_HOOKS, file, recorded?.created ?? []), ...addition.created, ...madeFile];
      await writeRecordOrThrow(options, { created, added: [...addedBefore, ...addition.changes] });
    }
    return { ...written, kept: [] };
  }
  const ours = recorded === null ? TEAMMEM_HOOKS : TEAMMEM_HOOKS.filter((hook) => addedBefore.includes(hookLabel(hook)));
  const removal = removeTeammemHooks(settings, ours, file, recorded?.created ?? null);
  // A file install made that holds nothing else once its hooks are out goes as a whole: no `{}` left behind.
  if (!options.dryRun && removal.changes.length > 0 && recorded?.created.includes(SETTINGS_FILE_ITSELF) && Object.keys(removal.settings).length === 0) {
    await unlink(file);
    await writeRecordOrThrow(options, null);
    return { file, changes: removal.changes, kept: [], backup: null, wrote: true, removedFile: true };
  }
  const written = { ...(await writeEdit(options, text, removal)), kept: present.filter((hook) => !removal.removed.includes(hook)) };
  // The user's own hooks stay on record as not install's, for a later uninstall to leave them too.
  if (written.wrote) await writeRecordOrThrow(options, written.kept.length > 0 ? { created: [], added: [] } : null);
  return written;
}

async function writeEdit(options: EditHooksFileOptions, text: string | null, edit: SettingsEdit): Promise<Omit<HooksFileEdit, "kept">> {
  const { file } = options;
  if (edit.changes.length === 0 || options.dryRun) return { file, changes: edit.changes, backup: null, wrote: false };
  const newText = `${JSON.stringify(edit.settings, null, detectIndent(text))}\n`;
  try {
    if (text === null) {
      await writeNewFile(file, newText);
      return { file, changes: edit.changes, backup: null, wrote: true };
    }
    const { backup } = await replaceFileKeepingBackup(file, newText, options.now);
    return { file, changes: edit.changes, backup, wrote: true };
  } catch (error) {
    const cause = writeFailureCause(error);
    if (cause === null) throw error;
    const real = await realpath(file).catch(() => file);
    const where = real === file ? file : `${file} (a link to ${real})`;
    throw new AppError(
      "INVALID_INPUT",
      `Cannot write ${where}: ${cause}. Nothing was changed. Make the file and its folder writable for you, or, when a dotfiles or Nix manager keeps it, make the change there (\`teammem hooks ${options.action} --dry-run\` shows it).`,
      { cause: error },
    );
  }
}

async function writeRecordOrThrow(options: EditHooksFileOptions, record: { created: string[]; added: string[] } | null): Promise<void> {
  try {
    await writeInstallRecord(options.recordDir, options.file, record);
  } catch (error) {
    const cause = writeFailureCause(error);
    if (cause === null) throw error;
    throw new AppError(
      "INVALID_INPUT",
      `Could not note what ${options.action} did to ${options.file} in ${options.recordDir} (${cause}); make that folder writable for you and run it again, else a later uninstall cannot tell install's hooks from yours.`,
      { cause: error },
    );
  }
}

/** Why a file could not be written, in words; null for a failure that is not the file system's refusal. */
function writeFailureCause(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOTDIR") return "a part of its path is not a folder";
  if (code === "ENOSPC" || code === "EDQUOT") return "no space left on the disk";
  return null;
}

function parseSettings(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    // The parser's message quotes the file's text, and settings may hold credentials (env): only
    // the line is named.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = position === undefined ? null : text.slice(0, Number(position)).split("\n").length;
    throw new AppError("INVALID_INPUT", `${file} is not valid JSON${line ? ` (near line ${line})` : ""}; fix it first. Nothing was changed.`);
  }
}

/** Keeps the file's own indentation (two spaces when it has none to copy). */
function detectIndent(text: string | null): string | number {
  const indent = text ? /^[{[]\s*\r?\n([ \t]+)\S/.exec(text)?.[1] : undefined;
  return indent ?? 2;
}

async function writeNewFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomically(file, text);
}
