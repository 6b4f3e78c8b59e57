import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import { AppError } from "../errors";
import { checkIndex, INDEX_FILE } from "../memdir/check-index";
import { repairIndexText, type IndexRepair } from "../memdir/repair-index";
import { UnsafeMemoryPathError, writeMemoryFile } from "../memdir/write-memory-file";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { hashIndexText } from "./read-memory-index";
import { resolvePrivateMemoryDir } from "./resolve-private-memory-dir";

export type RepairPrivateIndexOptions = {
  config: Config;
  caller: Caller;
  folder: string;
  /** The hash of the MEMORY.md the caller reviewed the diff of (readMemoryIndex's beforeHash). */
  expectedHash: string;
};

/**
 * I4: repairs the owner's private MEMORY.md (drops dangling lines, adds orphans), written
 * atomically. Only the home's owner may (others get NOT_FOUND), and only the text whose diff
 * they saw: if Claude Code changed the file in between, nothing is written. The repair returned
 * is masked (it is the API's answer); the file gets the real text.
 */
export async function repairPrivateIndex(options: RepairPrivateIndexOptions): Promise<IndexRepair> {
  const memoryDir = await resolvePrivateMemoryDir(options.config, options.caller, options.folder);
  const report = await checkIndex(memoryDir);
  if (hashIndexText(report.text) !== options.expectedHash) {
    throw new AppError("CONFLICT", "MEMORY.md changed since this repair was shown; reload the page to review the new diff.");
  }
  const repair = repairIndexText(report);
  if (!repair.isChanged) return masked(repair);
  try {
    await writeMemoryFile({ memoryDir, relativePath: INDEX_FILE, content: repair.after });
  } catch (error) {
    if (error instanceof UnsafeMemoryPathError) throw new AppError("INVALID_MEMORY", `${error.message} Fix the link by hand.`);
    throw error;
  }
  return masked(repair);
}

// The index quotes names, descriptions and file names of private memories: a credential in one
// reaches the caller as [REDACTED:<kind> <preview>], as on the index page.
function masked(repair: IndexRepair): IndexRepair {
  return {
    ...repair,
    before: maskSecretsInQuotedNames(repair.before),
    after: maskSecretsInQuotedNames(repair.after),
    added: repair.added.map(maskSecretsInQuotedNames),
    removed: repair.removed.map(maskSecretsInQuotedNames),
  };
}
