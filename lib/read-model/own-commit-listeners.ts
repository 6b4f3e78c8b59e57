import { log } from "../log";
import type { OwnCommit } from "./sync-read-model";
import { processWide } from "../process-wide";

type OwnCommitListener = (own: OwnCommit) => void;

// Caches of this instance that follow the store commit by commit (the duplicate finder) hear of
// a commit it just made from what it knows, instead of asking git for the diff on the next
// request (a `diff-tree` process and a blob read per approval).
const listeners = processWide("ownCommitListeners", () => new Set<OwnCommitListener>());

export function onOwnCommit(listener: OwnCommitListener): void {
  listeners.add(listener);
}

/** Called once the read model recorded `own`: every listener sees it, in commit order. */
export function announceOwnCommit(own: OwnCommit): void {
  for (const listener of listeners) {
    try {
      listener(own);
    } catch (error) {
      // A cache that fails to follow catches up from git on its next use.
      log("warn", "own_commit.listener_failed", { name: (error as Error)?.name ?? "unknown" });
    }
  }
}
