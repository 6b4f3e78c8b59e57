import { z } from "zod";
import { runProjectExtraction } from "@/lib/extraction/run-project-extraction";
import { readJsonBody } from "../../../../_server/body";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";

const ExtractionInput = z
  .object({
    /** JSONL lines of a Claude Code session: all of it, or the part after your cursor (the body is capped at 256 KB). */
    transcript: z.string().min(1).max(200_000),
    sessionId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
    /** Keep the redacted excerpt so reviewers can read the conversation around the evidence. */
    shareExcerpt: z.boolean().default(false),
  })
  .strict();

/**
 * POST /api/projects/:id/extractions: extraction on the server over a session's messages after
 * its cursor; each team-scoped candidate becomes a proposal with source `extraction`.
 */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, ExtractionInput);
  const result = await runProjectExtraction(getConfig(), getDatabase(), { projectId: params.id, userId: caller.userId, ...input });
  return json(result, 201);
});
