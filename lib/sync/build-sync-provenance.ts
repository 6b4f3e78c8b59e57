import type { OutboxItem } from "./sync-state";

export type SyncProvenanceContext = {
  /** The checkout the change was made in (its canonical root), or null outside a repository. */
  checkoutRoot: string | null;
  clientVersion: string;
};

/**
 * The provenance a sync proposal carries: where the change came from (checkout, the store commit
 * its base was synced at, the client). The one place it is built, so evidence (for example opt-in
 * transcript excerpts) can be added here later; the server keeps at most 16 KB, secrets redacted.
 */
export function buildSyncProvenance(item: OutboxItem, context: SyncProvenanceContext): Record<string, unknown> {
  return { checkout: context.checkoutRoot ?? "", baseCommit: item.baseCommit, clientVersion: context.clientVersion };
}
