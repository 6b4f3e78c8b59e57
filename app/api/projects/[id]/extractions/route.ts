import { z } from "zod";
import { maskProposedCandidates } from "@/lib/extraction/mask-proposed-candidates";
import { runProjectDream } from "@/lib/extraction/run-project-dream";
import { runProjectExtraction } from "@/lib/extraction/run-project-extraction";
import { readJsonBody } from "../../../../_server/body";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

const DailyLog = z
  .object({ file: z.string().regex(/^logs\/\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}\.md$/, { error: "must be logs/YYYY/MM/YYYY-MM-DD.md" }), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), text: z.string().max(64 * 1024) })
  .strict();

const ExtractionInput = z
  .object({
    /** JSONL lines of a Claude Code session: all of it, or the part after your cursor (the body is capped at 256 KB). */
    transcript: z.string().min(1).max(200_000).optional(),
    sessionId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
    /** Keep the redacted excerpt so reviewers can read the conversation around the evidence. */
    shareExcerpt: z.boolean().default(false),
    /** T4 instead of a session: `teammem dream` sends the daily logs changed since the last consolidation. */
    dailyLogs: z.array(DailyLog).min(1).max(31).optional(),
  })
  .strict()
  .refine((input) => (input.transcript === undefined) !== (input.dailyLogs === undefined), { error: "give either transcript (a session) or dailyLogs (dream)", path: ["transcript"] });

/**
 * POST /api/projects/:id/extractions: extraction on the server over a session's messages after
 * its cursor, or (with `dailyLogs`) dream over daily logs; each team-scoped candidate becomes a
 * proposal with source `extraction`.
 */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const { dailyLogs, transcript, ...rest } = await readJsonBody(request, ExtractionInput);
  if (dailyLogs) return json(maskProposedCandidates(await runProjectDream(getConfig(), getDatabase(), { projectId: params.id, userId: caller.userId, logs: dailyLogs })), 201);
  return json(maskProposedCandidates(await runProjectExtraction(getConfig(), getDatabase(), { projectId: params.id, userId: caller.userId, transcript: transcript!, ...rest })), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
