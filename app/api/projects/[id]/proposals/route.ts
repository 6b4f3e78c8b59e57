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

/** GET /api/projects/:id/proposals?state=…&source=…&check=clean|blocked: the queue, oldest first. */
export const GET = route<{ id: string }>(access.project("read"), async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const states = query.getAll("state").filter((state): state is (typeof PROPOSAL_STATES)[number] => (PROPOSAL_STATES as readonly string[]).includes(state));
  const source = PROPOSAL_SOURCES.find((candidate) => candidate === query.get("source"));
  const check = query.get("check") === "clean" || query.get("check") === "blocked" ? (query.get("check") as "clean" | "blocked") : undefined;
  return json({ proposals: await listProposals(getConfig(), getDatabase(), { projectIds: [params.id], states: states.length ? states : undefined, source, check }) });
});

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
