import type { WriteProvenance } from "../transcripts/find-write-provenance";
import type { OutboxItem } from "./sync-state";

export type SyncProvenanceContext = {
  /** The checkout the change was made in (its canonical root), or null outside a repository. */
  checkoutRoot: string | null;
  clientVersion: string;
  /** Set only when the member opted in (`--share-evidence`): who wrote a team file, from the transcripts. */
  findWriteEvidence?: (teamPath: string) => Promise<WriteProvenance | null>;
};

/**
 * The provenance a sync proposal carries: where the change came from (checkout, the store commit
 * its base was synced at, the client) and, only when the member opted in, the transcript evidence
 * of who wrote the file (X9); the server keeps at most 16 KB, secrets redacted.
 */
export async function buildSyncProvenance(item: OutboxItem, context: SyncProvenanceContext): Promise<Record<string, unknown>> {
  const origin = { checkout: context.checkoutRoot ?? "", baseCommit: item.baseCommit, clientVersion: context.clientVersion };
  if (!context.findWriteEvidence) return { ...origin, isEvidenceShared: false };
  const writeEvidence = item.content === null ? null : await context.findWriteEvidence(item.path);
  return { ...origin, isEvidenceShared: true, ...(writeEvidence ? { writeEvidence } : {}) };
}
