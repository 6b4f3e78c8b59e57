import type { Command } from "../command";
import { EXIT, linesOf, type Output } from "../output";

const HELP = `teammem extract — turn a Claude Code session into memory proposals, each with its evidence

Usage: teammem extract TRANSCRIPT.jsonl [--project ID] [--dry-run] [--share-excerpt] [--json]

Reads the session's messages after the last run's cursor (all of them the first time), finds the
user's explicit instructions and corrections, and proposes each team-worthy one to the project's
review queue (source "extraction"). The server runs its model when it has a key, else the rules.
  --dry-run        work locally: no server, no login, nothing saved; prints the candidates (the
                   model when ANTHROPIC_API_KEY is set, else the rules). Works on any transcript.
  --project ID     the project to propose to (required without --dry-run).
  --share-excerpt  let reviewers read the redacted conversation around the evidence (transcripts
                   are private: without it only the quoted evidence is sent along).
  --json           {"selector","cursor","candidates":[{"file","type","name","description","body",
                   "scope","evidence":[{"uuid","role","excerpt"}]}]}; with --project also
                   "sessionId", "fallbackReason" and each candidate's "proposal": {"id","state"} |
                   {"skipped":"private"} | {"error"}
Every secret is redacted before anything leaves this machine. The cursor (in the CLI's config
folder) moves only after the server kept the proposals, so a failed run is simply run again.`;

/** Lines sent to the server at most (the API's body limit is 256 KB). */
const MAX_SENT_BYTES = 180_000;

type Candidate = { file: string; type: string; name: string; description: string; body: string; scope: string; evidence: { uuid: string; role: string; excerpt: string }[]; refusal?: string; proposal?: { id?: string; state?: string; error?: string; skipped?: string } };
type Result = { selector: string; cursor: string | null; sessionId?: string | null; candidates: Candidate[]; fallbackReason?: string; skipped?: string };

export const extractCommand: Command = {
  name: "extract",
  summary: "propose memories from a Claude Code session transcript, with evidence",
  help: HELP,
  options: { project: { type: "string" }, "dry-run": { type: "boolean" }, "share-excerpt": { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const [file, ...rest] = positionals;
    if (!file || rest.length > 0) return usage(output, "give one TRANSCRIPT.jsonl");
    const { stat } = await import("node:fs/promises");
    const { isClaudeCodeTranscript } = await import("../../lib/transcripts/is-claude-code-transcript");
    const isFile = await stat(file).then((info) => info.isFile(), () => false);
    const isTranscript = isFile ? await isClaudeCodeTranscript(file).catch(() => null) : null;
    if (isTranscript === null) {
      output.error(`teammem extract: cannot read ${file}.`);
      return EXIT.usage;
    }
    // README (CLI): bad input exits 2. A file given by mistake is not "a session with nothing to save".
    if (!isTranscript) {
      output.error(`teammem extract: ${file} is not a Claude Code transcript (JSONL of session records, as in ~/.claude/projects/<project>/<session>.jsonl).`);
      return EXIT.usage;
    }
    const config = loadConfig();
    const { readExtractCursor, saveExtractCursor } = await import("../../lib/extraction/cli-extract-cursors");
    const cursor = await readExtractCursor(config.cliConfigDir, file);
    if (flags["dry-run"]) return print(output, await extractLocally(file, cursor, config), { isProposing: false });
    if (typeof flags.project !== "string") return usage(output, "--project ID is needed to propose (or use --dry-run)");

    const { resolveApiTarget } = await import("../../lib/client/resolve-api-target");
    const { callTeammemApi } = await import("../../lib/client/teammem-api");
    const { collectLinesAfterCursor } = await import("../../lib/extraction/collect-lines-after-cursor");
    const lines = await collectLinesAfterCursor(file, cursor, MAX_SENT_BYTES);
    if (lines.lineCount === 0) return print(output, { selector: "rules", cursor, candidates: [] }, { isProposing: true });
    const target = await resolveApiTarget(config);
    const body = { transcript: lines.text, ...(lines.sessionId ? { sessionId: lines.sessionId } : {}), shareExcerpt: flags["share-excerpt"] === true };
    const result = await callTeammemApi<Result>(target, "POST", `/api/projects/${encodeURIComponent(flags.project)}/extractions`, body);
    if (result.cursor) await saveExtractCursor(config.cliConfigDir, file, result.cursor);
    if (lines.isCut && !output.isJson) output.error("teammem extract: the new part of this session was long; only its latest messages were sent.");
    return print(output, result, { isProposing: true });
  },
};

async function extractLocally(file: string, cursor: string | null, config: import("../../lib/config").Config): Promise<Result> {
  const { extractFromTranscript } = await import("../../lib/extraction/extract-from-transcript");
  const { readTranscript } = await import("../../lib/transcripts/read-transcript");
  const model = config.anthropicApiKey ? { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.extractionModel, timeoutMs: config.extractionTimeoutMs } : null;
  return extractFromTranscript({ messages: readTranscript(file).messages, cursor, model, library: { manifest: "", readMemory: async () => null } });
}

function print(output: Output, result: Result, { isProposing }: { isProposing: boolean }): number {
  if (output.isJson) {
    output.json(isProposing ? proposingJson(result) : dryRunJson(result));
    return EXIT.ok;
  }
  if (result.skipped) output.print(`Skipped: ${result.skipped}; the cursor moved past these messages.`);
  else if (result.fallbackReason && result.selector === "rules") output.error(`teammem extract: rules used (${result.fallbackReason}).`);
  if (result.candidates.length === 0 && !result.skipped) output.print("No memory candidates in the new messages.");
  for (const candidate of result.candidates) {
    output.print(`${candidate.file}  [${candidate.type}, ${candidate.scope}]  ${candidate.name}${outcomeOf(candidate)}`);
    const [first] = candidate.evidence;
    if (first) output.print(`    ${first.role}: "${first.excerpt.replace(/\s+/g, " ").slice(0, 160)}"`);
  }
  return EXIT.ok;
}

/** The documented --dry-run shape: the candidates and their evidence. */
function dryRunJson(result: Result) {
  return { selector: result.selector, cursor: result.cursor, candidates: result.candidates.map(shownCandidate), ...(result.skipped ? { skipped: result.skipped } : {}) };
}

/** With --project, also the session and what the server did with each candidate, as the plain output says it. */
function proposingJson(result: Result) {
  const candidates = result.candidates.map((candidate) => ({ ...shownCandidate(candidate), ...(candidate.proposal ? { proposal: candidate.proposal } : {}) }));
  return { ...dryRunJson(result), ...(result.sessionId ? { sessionId: result.sessionId } : {}), ...(result.fallbackReason ? { fallbackReason: result.fallbackReason } : {}), candidates };
}

function shownCandidate({ file, type, name, description, body, scope, evidence, refusal }: Candidate) {
  return { file, type, name, description, body, scope, evidence, ...(refusal ? { refused: refusal } : {}) };
}

/** What became of a candidate, as the plain output shows it after its name. */
function outcomeOf({ proposal, refusal }: Candidate): string {
  if (!proposal) return refusal ? ` → not proposed: ${refusal}` : "";
  if (proposal.id) return ` → proposal ${proposal.id} (${proposal.state})`;
  return proposal.skipped ? " → personal: not proposed to the team" : ` → refused: ${proposal.error}`;
}

function usage(output: Output, problem: string): number {
  output.error(`teammem extract: ${problem}.`, "", ...linesOf(HELP));
  return EXIT.usage;
}
