import { z } from "zod";
import { recordMemberSync } from "@/lib/member-sync/record-member-sync";
import { DEFAULT_SYNC_PAGE_SIZE, MAX_SYNC_PAGE_SIZE, readSyncChanges } from "@/lib/member-sync/read-sync-changes";
import { MAX_TRACKED_PROPOSALS } from "@/lib/member-sync/list-tracked-proposals";
import { ClientVersion } from "../../../../_server/client-version";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { readPaging } from "../../../../_server/paging";
import { parseInputOrThrow } from "../../../../_server/parse-input";
import { otherMethodsThan } from "../../../../_server/other-methods";

export const dynamic = "force-dynamic";

const Commit = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, { error: "must be a commit id (40 or 64 hex digits)" });
const SyncQuery = z.object({
  since: Commit.nullable(),
  head: Commit.nullable(),
  proposals: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "must be proposal ids" })).max(MAX_TRACKED_PROPOSALS),
  client: ClientVersion,
  // Only 1 skips the record: `peek=true` read as "not 1" recorded the sync a client meant to peek at.
  peek: z.enum(["0", "1"], { error: "must be 1 (look without recording the sync) or 0; leave it out to record it" }).optional(),
});
const SYNC_PAGING = { defaultPageSize: DEFAULT_SYNC_PAGE_SIZE, maxPageSize: MAX_SYNC_PAGE_SIZE };

/**
 * GET /api/projects/:id/sync?since=<commit>&page=N[&pageSize=M][&head=<commit>][&proposals=a,b][&client=V][&peek=1]:
 * what a member's team/ folder needs to reach the store's head (member and up). Pages after the
 * first pass `head` from page 1; a store that moved meanwhile answers 409. Every call records the
 * member's sync (`client=` names the client version, shown to leads, so one that is not a version
 * or holds a credential is a 400; `peek=1`, for `teammem status`, records nothing).
 */
export const GET = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const query = new URL(request.url).searchParams;
  const input = parseInputOrThrow(SyncQuery, {
    since: query.get("since") || null,
    head: query.get("head") || null,
    proposals: (query.get("proposals") ?? "").split(",").filter(Boolean),
    client: query.get("client") || "unknown",
    peek: query.get("peek") ?? undefined,
  }, "query");
  const { page, pageSize } = readPaging(query, SYNC_PAGING);
  const answer = await readSyncChanges(getConfig(), getDatabase(), { projectId: params.id, userId: caller.userId, since: input.since, expectedHead: input.head, page, pageSize, proposalIds: input.proposals });
  const isLastPage = answer.page >= answer.pageCount;
  if (input.peek !== "1") await recordMemberSync(getDatabase(), { projectId: params.id, userId: caller.userId, clientVersion: input.client, heldCommit: isLastPage ? answer.head : undefined });
  return json(answer);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
