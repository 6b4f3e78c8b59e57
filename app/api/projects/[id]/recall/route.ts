import { z } from "zod";
import { MAX_RECALL_QUERY_LENGTH } from "@/lib/recall/fit-recall-query";
import { recallProjectMemories } from "@/lib/recall/recall-project-memories";
import { readJsonBody } from "../../../../_server/body";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json, jsonWithText } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

const RecallInput = z
  .object({
    query: z.string().trim().min(1, { error: "write the prompt to recall memories for" }).max(MAX_RECALL_QUERY_LENGTH),
    recentTools: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
    alreadySurfaced: z.array(z.string().min(1).max(500)).max(500).optional(),
    allowSingleWord: z.boolean().optional(),
    heldCommit: z.string().regex(/^[0-9a-f]{40}$/, { error: "must be a 40-character store commit id" }).optional(),
    modelTimeoutMs: z.number().int().min(50).max(10_000).optional(),
    /** False leaves the manifest out of the answer (~50 KB at 200 memories): the prompt hook never shows it. */
    includeManifest: z.boolean().optional(),
    /** The dashboard's Recall page: a person trying prompts, logged apart from what agents were given. */
    playground: z.boolean().optional(),
  })
  .strict();

/** POST /api/projects/:id/recall: the up-to-five memories an agent would be given for a query. */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const { playground, ...input } = await readJsonBody(request, RecallInput);
  const { manifest, ...withoutManifest } = await recallProjectMemories(getConfig(), getDatabase(), caller, { projectId: params.id, ...input, isPlayground: playground, signal: request.signal });
  return manifest === undefined ? json(withoutManifest) : jsonWithText(withoutManifest, "manifest", manifest);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
