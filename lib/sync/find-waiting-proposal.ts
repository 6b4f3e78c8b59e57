import * as z from "zod/mini";
import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import { PROPOSAL_STATES } from "../review/proposal-types";

/** Not decided yet: the same text proposed again would be a second copy in the lead's queue. */
const UNDECIDED = PROPOSAL_STATES.filter((state) => !["committed", "rejected", "withdrawn", "superseded"].includes(state));

const Listing = z.object({ proposals: z.array(z.looseObject({ id: z.string(), path: z.string(), isRetirement: z.boolean() })) });
const Detail = z.object({ proposal: z.looseObject({ id: z.string(), path: z.string(), content: z.nullable(z.string()) }) });

export type FindWaitingProposalOptions = { projectId: string; path: string; content: string };

/**
 * The undecided proposal of exactly this text for this path in the project, or null: `teammem
 * propose` run twice (unsure the first went through) points at it instead of opening another.
 * The proposals route is not idempotent, so the queue is asked first; a listing this client
 * cannot read means "none found" and the proposal is made as before.
 */
export async function findWaitingProposal(target: ApiTarget, { projectId, path, content }: FindWaitingProposalOptions): Promise<string | null> {
  const project = `/api/projects/${encodeURIComponent(projectId)}/proposals`;
  const query = new URLSearchParams(UNDECIDED.map((state) => ["state", state]));
  const listing = Listing.safeParse(await callTeammemApi<unknown>(target, "GET", `${project}?${query}`));
  if (!listing.success) return null;
  for (const candidate of listing.data.proposals) {
    if (candidate.path !== path || candidate.isRetirement) continue;
    const detail = Detail.safeParse(await callTeammemApi<unknown>(target, "GET", `${project}/${encodeURIComponent(candidate.id)}`));
    if (detail.success && detail.data.proposal.content === content) return candidate.id;
  }
  return null;
}
