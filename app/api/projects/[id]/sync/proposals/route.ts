import { z } from "zod";
import { submitSyncProposal } from "@/lib/member-sync/submit-sync-proposal";
import { readJsonBody } from "../../../../../_server/body";
import { ClientVersion } from "../../../../../_server/client-version";
import { MemoryContent } from "../../../../../_server/memory-content";
import { getConfig, getDatabase } from "../../../../../_server/context";
import { access, route } from "../../../../../_server/guard";
import { json } from "../../../../../_server/http";
import { otherMethodsThan } from "../../../../../_server/other-methods";

const Blob = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/);

/** Where a synced change was made; other fields (evidence) may be added by later clients. */
const SyncProvenance = z
  .object({
    checkout: z.string().max(500),
    baseCommit: Blob.nullable(),
    clientVersion: ClientVersion,
  })
  .catchall(z.unknown());

const SyncProposalInput = z
  .object({
    path: z.string().min(1).max(300),
    /** The whole memory file; null proposes retiring it (a local deletion). */
    content: MemoryContent.nullable(),
    /** The store blob the member's copy was synced from; null for a file new to the store. */
    baseBlob: Blob.nullable(),
    idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, { error: "must be 16 to 100 letters, digits, _ or -" }),
    provenance: SyncProvenance,
  })
  .strict();

/**
 * POST /api/projects/:id/sync/proposals: a change `teammem sync` found in a member's team/ folder
 * (source `sync`). A retry with the same idempotencyKey answers 200 with the same proposal; the
 * first submission answers 201. A file the caller edited again while their sync proposal for it
 * is open becomes that proposal's next revision (200, `isRevision: true`).
 */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, SyncProposalInput);
  const outcome = await submitSyncProposal(getConfig(), getDatabase(), { projectId: params.id, proposerId: caller.userId, ...input });
  return json(outcome, outcome.isNew ? 201 : 200);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
