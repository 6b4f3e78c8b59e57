import path from "node:path";
import type { Config } from "../config";
import { AppError } from "../errors";
import { countCommits, displayRemote, fetchMainObjects, hasCommit, holdsWholeHistory, isAncestor, isBareRepository, isWorkingClone, resolveRef } from "./git";
import { readRefValue } from "./git-refs";
import { localPath } from "./push-on-same-disk";

const ORIGIN_MAIN = "refs/remotes/origin/main";
const GUIDE = 'docs/store.md, "When the store\'s history is missing"';

/** What knows the store's history besides the store itself. */
export type HistoryTraces = {
  /** The commit the read model records as the store's head (the newest any instance recorded); null when none yet. */
  recordedCommit: string | null;
  /** The newest commit the server's clone has of the store (its origin/main, else its own main); null when none. */
  cloneHead: string | null;
};

/** The store as start-up finds it: missing (the embedded folder is gone), or present with its main (null: no main branch). */
export type StoreState = { kind: "missing" } | { kind: "present"; main: string | null };

type Loss = { problem: "no-store" | "no-main" | "not-on-main"; storeMain: string | null; missing: string };

/**
 * The clone's record of the store's main, read from its ref files: the commit may have lived only
 * in a store that is gone (the clone borrows the store's objects), and its id still says what the
 * store had. The clone's own main (where the demo was committed) counts only when origin/main is
 * absent: a teammem before this check pruned origin/main when the store lost its branch.
 */
export async function readCloneHead(clone: string): Promise<string | null> {
  if (!isWorkingClone(clone)) return null;
  const recorded = await readRefValue(path.join(clone, ".git"), ORIGIN_MAIN).catch(() => null);
  return recorded ?? (await resolveRef(clone, ORIGIN_MAIN)) ?? (await resolveRef(clone, "refs/heads/main"));
}

/**
 * Start-up check (docs/store.md, "When the store's history is missing"): every commit the read
 * model or the clone knows must be on the store's main. A store that lost its history (deleted
 * and re-created empty, its main deleted, reset or rewritten) stops start-up with one message
 * saying what still holds the history and how to put it back; nothing is pushed or rebuilt.
 * Reads refs only, and asks git about ancestry only when main is not the commit on record.
 */
export async function assertStoreKeepsHistory(config: Config, traces: HistoryTraces, store: StoreState): Promise<void> {
  const known = [...new Set([traces.recordedCommit, traces.cloneHead])].filter((commit): commit is string => commit !== null);
  if (known.length === 0) return;
  if (store.kind === "missing") throw await historyLost(config, traces, { problem: "no-store", storeMain: null, missing: known[0]! });
  if (store.main === null) throw await historyLost(config, traces, { problem: "no-main", storeMain: null, missing: known[0]! });
  for (const commit of known) {
    if (!(await isOnMain(config, commit, store.main))) throw await historyLost(config, traces, { problem: "not-on-main", storeMain: store.main, missing: commit });
  }
}

/**
 * Before a commit is built on the store's `head` (docs/store.md step 1): main must still hold the
 * commit the read model records, or an approval in a store that lost its history would start a
 * new one (a root commit), or go on from a reset main without the commits since. Free when the
 * head is the recorded commit (the usual case); one `merge-base` otherwise.
 */
export async function assertHeadKeepsRecordedCommit(clone: string, head: string | null, recorded: string | null): Promise<void> {
  if (recorded === null || head === recorded) return;
  if (head !== null && (await isAncestor(clone, recorded, head))) return;
  const found = head === null
    ? `The team store has no main branch, though teammem recorded commit ${short(recorded)} as its head: its history was lost`
    : `The team store's main (${short(head)}) does not contain commit ${short(recorded)}, which teammem recorded as its head: its history was reset or rewritten`;
  throw new AppError(
    "STORE_UNAVAILABLE",
    `${found}, so nothing was committed. An administrator restarts teammem (npm start) to see how to restore it (${GUIDE}).`,
  );
}

/** The store's folder when it is a bare repository on this disk (the embedded one, or a local path). */
export function storeOnThisDisk(config: Pick<Config, "storeRemote">): string | null {
  const dir = localPath(config.storeRemote);
  return dir !== null && isBareRepository(dir) ? dir : null;
}

async function isOnMain(config: Config, commit: string, main: string): Promise<boolean> {
  if (commit === main) return true;
  const store = storeOnThisDisk(config);
  if (store) return isAncestor(store, commit, main);
  // A store elsewhere: main's objects come into the clone with no ref moved, and the clone answers.
  if (!(await hasCommit(config.storeCloneDir, main))) await fetchMainObjects(config.storeCloneDir);
  return isAncestor(config.storeCloneDir, commit, main);
}

async function historyLost(config: Config, traces: HistoryTraces, loss: Loss): Promise<AppError> {
  const store = displayRemote(config.storeRemote);
  const found =
    loss.problem === "no-store" ? `The team store ${store} is missing`
    : loss.problem === "no-main" ? `The team store ${store} has no main branch`
    : `The team store's main branch (${short(loss.storeMain)}) does not contain commit ${short(loss.missing)}: its history was reset or rewritten`;
  const newest = await newestHeldByClone(config.storeCloneDir, traces);
  // A clone that borrowed the store's objects (a push from outside teammem, read on the same
  // disk) lost them with the store: it names the commits but cannot push them back.
  const tip = newest !== null && (await holdsWholeHistory(config.storeCloneDir, newest)) ? newest : null;
  const holders: string[] = [];
  if (traces.recordedCommit) holders.push(`the database records commit ${short(traces.recordedCommit)} as the store's head`);
  const isReset = loss.storeMain !== null && tip !== null && (await isAncestor(config.storeCloneDir, loss.storeMain, tip));
  const cloneTip = tip ?? (newest === null ? traces.cloneHead : null);
  if (newest !== null && tip === null) holders.push(`${config.storeCloneDir} names commit ${short(newest)} but lacks objects of its history, which it borrowed from the store`);
  if (cloneTip) {
    const count = await countCommits(config.storeCloneDir, cloneTip);
    holders.push(`${config.storeCloneDir} holds ${count === null ? "its history" : `${count} commit${count === 1 ? "" : "s"}`} up to ${short(cloneTip)}`);
  }
  return new AppError(
    "STORE_UNAVAILABLE",
    `${found}. What still holds its history: ${holders.join("; ")}. ${restoreSteps(config, tip, loss, isReset)} ` +
      `teammem changed nothing and will not start on a store that lost its history (${GUIDE}).`,
    { details: { missingCommit: loss.missing } },
  );
}

/** `isReset`: main is an ancestor of `tip`, so pushing `tip` is a fast-forward. */
function restoreSteps(config: Config, tip: string | null, loss: Loss, isReset: boolean): string {
  const clone = config.storeCloneDir;
  if (tip === null) {
    return `${clone} does not hold commit ${short(loss.missing)}: restore the store from a backup (or push that commit to it from another instance's clone), then start again.`;
  }
  // The store's path for one on this disk (git push to it works while it is missing its branch); `origin` for one elsewhere.
  const target = localPath(config.storeRemote) ?? "origin";
  const push = `git -C ${clone} push ${target} ${tip}:refs/heads/main`;
  if (loss.problem === "no-store") return `To restore it from the clone, run \`git init --bare --initial-branch=main ${target}\` and \`${push}\`, then start again.`;
  if (loss.problem === "no-main") return `To restore it from the clone, run \`${push}\`, then start again.`;
  const putBack = isReset ? `\`${push}\` (a fast-forward)` : `\`git -C ${clone} push --force ${target} ${tip}:refs/heads/main\` (main then drops the commits of the rewrite)`;
  return `To put main back, run ${putBack}, then start again; if the change was meant (a credential removed from history, say), run \`teammem reindex\` instead: the read model is rebuilt from main as it is now.`;
}

/**
 * The known commit that holds every other known one, when the clone has it: the clone's head, or
 * the recorded commit (a fetch from a store reset while the server ran moved origin/main back,
 * but the clone still has the commits it wrote). Null when only a backup can restore the store.
 */
async function newestHeldByClone(clone: string, { recordedCommit: recorded, cloneHead: head }: HistoryTraces): Promise<string | null> {
  if (!isWorkingClone(clone)) return null;
  if (head !== null && (recorded === null || recorded === head || (await isAncestor(clone, recorded, head)))) return head;
  if (recorded !== null && (await hasCommit(clone, recorded)) && (head === null || (await isAncestor(clone, head, recorded)))) return recorded;
  return null;
}

function short(commit: string | null): string {
  return commit === null ? "(none)" : commit.slice(0, 12);
}
