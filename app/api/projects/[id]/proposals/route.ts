import { z } from "zod";
import { listProposals } from "@/lib/review/list-proposals";
import { PROPOSAL_SOURCES, PROPOSAL_STATES } from "@/lib/review/proposal-types";
import { submitProposal } from "@/lib/review/submit-proposal";
import { readJsonBody } from "../../../../_server/body";
import { MemoryContent } from "../../../../_server/memory-content";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";
import { parseInputOrThrow } from "../../../../_server/parse-input";

const ProposalInput = z
  .object({
    path: z.string().min(1).max(300),
    /** The whole memory file (frontmatter + body); null proposes retiring the file. */
    content: MemoryContent.nullable(),
    baseBlob: z.string().regex(/^[0-9a-f]{40}$/).nullable().optional(),
    source: z.never({ error: "decided by the server from the route you call (a token here: member); remove it" }).optional(),
    provenance: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

// A filter value the queue does not know is refused: ignoring it answered every proposal, which
// reads as "this filter matches everything" (state=Committed, a typo, an old state name).
const ProposalQuery = z.object({
  state: z.array(z.enum(PROPOSAL_STATES)).optional(),
  source: z.enum(PROPOSAL_SOURCES).optional(),
  check: z.enum(["clean", "blocked"]).optional(),
});

/** GET /api/projects/:id/proposals?state=…&source=…&check=clean|blocked: the queue, oldest first. */
export const GET = route<{ id: string }>(access.project("read"), async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const { state, source, check } = parseInputOrThrow(ProposalQuery, readQuery(query), "query");
  return json({ proposals: await listProposals(getConfig(), getDatabase(), { projectIds: [params.id], states: state?.length ? state : undefined, source, check }) });
});

/** `state` may repeat; `source` and `check` may not (a second value was silently dropped). */
function readQuery(query: URLSearchParams): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    read[key] = key === "state" ? values : values.length === 1 ? values[0] : values;
  }
  return read;
}

/**
 * POST /api/projects/:id/proposals: a member's proposal. The source is the route's, never the
 * client's: with a token it is `member` (the CLI, agents), from the dashboard's session `dashboard`.
 */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const { path, content, baseBlob, provenance } = await readJsonBody(request, ProposalInput);
  const source = caller.via === "session" ? "dashboard" : "member";
  const proposal = await submitProposal(getConfig(), getDatabase(), { projectId: params.id, proposerId: caller.userId, path, content, baseBlob, provenance, source });
  return json({ proposal }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
