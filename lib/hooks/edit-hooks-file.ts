import { mkdir, readFile } from "node:fs/promises";
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
};

export type EditHooksFileOptions = {
  file: string;
  action: "install" | "uninstall";
  /** teammem's config folder: where install records what it added and created, for uninstall to remove exactly that. */
  recordDir: string;
  dryRun?: boolean;
  now?: Date;
};

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
      const created = [...keepOwnContainers(settings, TEAMMEM_HOOKS, file, recorded?.created ?? []), ...addition.created];
      await writeInstallRecord(options.recordDir, file, { created, added: [...addedBefore, ...addition.changes] });
    }
    return { ...written, kept: [] };
  }
  const ours = recorded === null ? TEAMMEM_HOOKS : TEAMMEM_HOOKS.filter((hook) => addedBefore.includes(hookLabel(hook)));
  const removal = removeTeammemHooks(settings, ours, file, recorded?.created ?? null);
  const written = { ...(await writeEdit(options, text, removal)), kept: present.filter((hook) => !removal.changes.includes(hook)) };
  // The user's own hooks stay on record as not install's, for a later uninstall to leave them too.
  if (written.wrote) await writeInstallRecord(options.recordDir, file, written.kept.length > 0 ? { created: [], added: [] } : null);
  return written;
}

async function writeEdit(options: EditHooksFileOptions, text: string | null, edit: SettingsEdit): Promise<Omit<HooksFileEdit, "kept">> {
  const { file } = options;
  if (edit.changes.length === 0 || options.dryRun) return { file, changes: edit.changes, backup: null, wrote: false };
  const newText = `${JSON.stringify(edit.settings, null, detectIndent(text))}\n`;
  if (text === null) {
    await writeNewFile(file, newText);
    return { file, changes: edit.changes, backup: null, wrote: true };
  }
  const { backup } = await replaceFileKeepingBackup(file, newText, options.now);
  return { file, changes: edit.changes, backup, wrote: true };
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
