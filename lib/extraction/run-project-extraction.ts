import { randomUUID } from "node:crypto";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { loadRecallSource } from "../read-model/load-recall-source";
import { formatModelManifest } from "../recall/format-model-manifest";
import { submitProposal } from "../review/submit-proposal";
import { findCredentialInName } from "../secrets/find-credential-in-name";
import { viewBytes, type ViewMessage } from "../transcripts/conversation-view";
import { readTranscriptText } from "../transcripts/read-transcript";
import type { ExtractionCandidate, ExtractionSelector } from "./candidate-types";
import { extractFromTranscript, MAX_EXCERPT_BYTES } from "./extract-from-transcript";
import { buildExtractionProvenance } from "./extraction-provenance";
import { findWaitingTwin } from "./find-waiting-twin";
import { formatCandidateFile } from "./format-candidate-file";
import { readSessionCursor, writeSessionCursor } from "./session-cursor";

export type ProjectExtractionInput = {
  projectId: string;
  userId: string;
  /** JSONL lines of a Claude Code session (all of it or the part after the member's cursor). */
  transcript: string;
  /** Defaults to the transcript's own sessionId. */
  sessionId?: string;
  /** The member agrees to keep the redacted excerpt for reviewers (transcripts are private). */
  shareExcerpt: boolean;
};

export type ProposedCandidate = ExtractionCandidate & { proposal: { id: string; state: string } | { error: string } | { skipped: "private" | "no-model" } };

export type ProjectExtractionResult = { selector: ExtractionSelector; cursor: string | null; sessionId: string; fallbackReason?: string; skipped?: string; candidates: ProposedCandidate[] };

const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Longer than the slowest run (five model turns at the extraction timeout, then the proposals). */
const LEASE_MS = 10 * 60 * 1000;

/**
 * Server-side extraction (X6, C10): runs over the messages after the session's stored cursor,
 * proposes each team-scoped candidate (source `extraction`, evidence in the provenance), and
 * only then advances the cursor, so a failed run is retried and a kept one never runs twice.
 * Private candidates (T2) are returned to the member, not proposed.
 */
export async function runProjectExtraction(config: Config, db: Db, input: ProjectExtractionInput): Promise<ProjectExtractionResult> {
  const sessionId = input.sessionId ?? (await findSessionId(input.transcript));
  if (!sessionId || !SESSION_ID.test(sessionId)) throw new AppError("INVALID_INPUT", "sessionId: give the Claude Code session id (letters, digits, - and _), or send lines that carry it.", { details: { field: "sessionId" } });
  // Stored in clear and linked from the review page, while the proposals' provenance masks it:
  // refused before anything is stored, whether sent or read from the lines.
  const credential = findCredentialInName(sessionId);
  if (credential) throw new AppError("INVALID_INPUT", `sessionId: it ${credential}; give the Claude Code session id.`, { details: { field: "sessionId" } });
  const key = { projectId_sessionId: { projectId: input.projectId, sessionId } };
  await db.extractionSession.upsert({ where: key, create: { projectId: input.projectId, sessionId, userId: input.userId }, update: {} });
  const lease = await takeLease(db, input, sessionId);
  try {
    const stored = await db.extractionSession.findUniqueOrThrow({ where: key });
    const storedCursor = readSessionCursor(stored.cursor);
    const source = await loadRecallSource(config, db, input.projectId);
    const known = new Set(source.memories.map((memory) => memory.path));
    const result = await extractFromTranscript({
      messages: readTranscriptText(input.transcript).messages,
      cursor: storedCursor?.uuid ?? null,
      cursorTime: storedCursor?.timestamp,
      model: config.anthropicApiKey ? { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.extractionModel, timeoutMs: config.extractionTimeoutMs } : null,
      library: { manifest: formatModelManifest(source.memories), readMemory: async (file) => (known.has(file) ? source.readText(file) : null) },
    });
    // The cursor is a line's uuid, stored and answered in clear: one that holds a credential
    // (Claude Code's never do) refuses the run before anything is proposed or stored.
    const cursorCredential = result.cursor === null ? null : findCredentialInName(result.cursor);
    if (cursorCredential) throw new AppError("INVALID_INPUT", `transcript: the uuid of the last line read ${cursorCredential}; send the lines as Claude Code wrote them.`, { details: { field: "transcript" } });
    const run = { session: sessionId, selector: result.selector, fromCursor: storedCursor?.uuid ?? null, toCursor: result.cursor, isExcerptShared: input.shareExcerpt };
    const candidates: ProposedCandidate[] = [];
    for (const candidate of result.candidates) candidates.push({ ...candidate, proposal: await proposeCandidate(config, db, input, candidate, buildExtractionProvenance(candidate, run)) });
    const excerpt = input.shareExcerpt ? JSON.stringify(mergeExcerpts(stored.excerpt, result.excerpt)) : stored.excerpt;
    // Only the run holding the lease moves the cursor, and it lets go in the same write.
    await db.extractionSession.updateMany({ where: { projectId: input.projectId, sessionId, leaseId: lease }, data: { cursor: writeSessionCursor(result.cursor === null ? null : { uuid: result.cursor, timestamp: result.cursorTime }), excerpt, leaseId: null, leaseUntil: null } });
    return { selector: result.selector, cursor: result.cursor, sessionId, fallbackReason: result.fallbackReason, skipped: result.skipped, candidates };
  } finally {
    await db.extractionSession.updateMany({ where: { projectId: input.projectId, sessionId, leaseId: lease }, data: { leaseId: null, leaseUntil: null } });
  }
}

/**
 * X4: one run per session at a time. The lease is taken by a conditional update (free, or left
 * by a run that died), so two requests can never both hold it; the second is told to send its
 * lines again, and that run starts after the cursor the first one stored.
 */
async function takeLease(db: Db, input: ProjectExtractionInput, sessionId: string): Promise<string> {
  const now = new Date();
  const lease = randomUUID();
  const taken = await db.extractionSession.updateMany({
    where: { projectId: input.projectId, sessionId, userId: input.userId, OR: [{ leaseId: null }, { leaseUntil: { lt: now } }] },
    data: { leaseId: lease, leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  if (taken.count === 1) return lease;
  const row = await db.extractionSession.findUniqueOrThrow({ where: { projectId_sessionId: { projectId: input.projectId, sessionId } } });
  if (row.userId !== input.userId) throw new AppError("FORBIDDEN", "This session's extraction belongs to another member.");
  throw new AppError("CONFLICT", "An extraction of this session is already running; send it again when it ends (it will start after the messages that run processed).");
}

/** One candidate into the review queue (source `extraction`); a private one (T2) is kept back. */
export async function proposeCandidate(config: Config, db: Db, input: { projectId: string; userId: string }, candidate: ExtractionCandidate, provenance: Record<string, unknown>): Promise<ProposedCandidate["proposal"]> {
  if (candidate.refusal !== undefined) return { error: `Not proposed: ${candidate.refusal}.` };
  if (candidate.scope === "private") return { skipped: "private" };
  const content = formatCandidateFile(candidate);
  const twin = await findWaitingTwin(db, { projectId: input.projectId, proposerId: input.userId, path: candidate.file, content });
  if (twin) return twin;
  try {
    const proposal = await submitProposal(config, db, { projectId: input.projectId, path: candidate.file, content, source: "extraction", proposerId: input.userId, provenance });
    return { id: proposal.id, state: proposal.state };
  } catch (error) {
    // One bad candidate (a name the store refuses) does not lose the others.
    if (isAppError(error) && error.code === "INVALID_INPUT") return { error: error.message };
    throw error;
  }
}

/** The stored view grows with each run (newest kept) and stays under its cap. */
function mergeExcerpts(stored: string | null, fresh: ViewMessage[]): ViewMessage[] {
  const earlier = stored ? (JSON.parse(stored) as ViewMessage[]) : [];
  const seen = new Set(fresh.map((message) => message.uuid));
  const merged = [...earlier.filter((message) => !seen.has(message.uuid)), ...fresh];
  while (merged.length > 1 && viewBytes(merged) > MAX_EXCERPT_BYTES) merged.shift();
  return merged;
}

async function findSessionId(transcript: string): Promise<string | null> {
  for await (const message of readTranscriptText(transcript).messages) if (message.sessionId) return message.sessionId;
  return null;
}
