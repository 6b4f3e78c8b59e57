import type { ApiTarget } from "../client/teammem-api";
import type { Config } from "../config";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { parseJsonOrNull } from "../parse-json";
import { assertTeamFolder } from "./assert-team-folder";
import { findTeamMemoryDir } from "./find-team-memory-dir";
import { askStoreQuietly, findQuietState, isTeamDirAsRecorded, syncQuietly } from "./quiet-sync";
import { acquireSyncLock } from "./sync-lock";
import type { SyncReport } from "./sync-report";
import { readSyncStateText } from "./sync-state";

export type RunSyncOptions = {
  config: Pick<Config, "claudeCodeEnv" | "homeDir" | "faultPoint">;
  target: ApiTarget;
  /** The checkout (or any folder in it) whose team memory is synced. */
  cwd: string;
  projectId: string | null;
  isDryRun: boolean;
  clientVersion: string;
  /** `--share-evidence`: attach who wrote each proposed file, from this checkout's transcripts (opt-in, X9). */
  shareEvidence?: boolean;
  /** How long a second sync waits for the first before "sync already running". */
  lockWaitMs: number;
  onProgress?: (done: number, total: number) => void;
};

/**
 * `teammem sync`: keeps a member's team/ folder and the team store in step, both ways, through
 * review (docs/store.md, "Member sync"). Lock; when nothing waits and team/ is as last recorded,
 * ask the store and stop there if it did not move (quiet-sync.ts); else the whole sync
 * (sync-in-full.ts).
 */
export async function runSync(options: RunSyncOptions): Promise<SyncReport> {
  const location = await findTeamMemoryDir({ cwd: options.cwd, env: options.config.claudeCodeEnv, homeDir: options.config.homeDir });
  // A dry run writes nothing, not even the lock beside a memory directory that may not exist yet.
  const lock = options.isDryRun ? null : await acquireSyncLock(location.memoryDir, options.lockWaitMs);
  try {
    const stored = await readSyncStateText(location.memoryDir);
    const parsed = stored === null ? null : parseJsonOrNull(stored);
    // Nothing waiting and team/ as recorded: one question to the server, no tables built.
    const quiet = findQuietState(stored, parsed, options.target.server, options.projectId);
    let prefetched: { since: string; answer: SyncAnswer } | null = null;
    if (quiet) {
      await assertTeamFolder(location.teamDir);
      const quietOptions = { target: options.target, memoryDir: location.memoryDir, teamDir: location.teamDir, isDryRun: options.isDryRun, clientVersion: options.clientVersion };
      const asking = askStoreQuietly(quietOptions, quiet);
      if (await isTeamDirAsRecorded(location.teamDir, quiet)) {
        const outcome = await syncQuietly(quietOptions, quiet, await asking);
        if (outcome.report) return outcome.report;
        prefetched = { since: quiet.head.syncedCommit, answer: outcome.answer };
      } else {
        // team/ changed: the full sync uses the answer; a failed question is asked again there,
        // where an unreachable server queues the changes in the outbox.
        const asked = await asking;
        if (asked.answer) prefetched = { since: quiet.head.syncedCommit, answer: asked.answer };
      }
    }
    // The rest of a sync loads only when it runs (scanning, secrets, transcripts, diffs): a
    // quiet sync, at every session start, needs none of it.
    const { syncInFull } = await import("./sync-in-full");
    return await syncInFull(options, location, { stored, parsed, prefetched });
  } finally {
    await lock?.release();
  }
}
