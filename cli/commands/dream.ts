import type { Command } from "../command";
import { EXIT, linesOf, type Output } from "../output";

const HELP = `teammem dream — distil KAIROS daily logs into topic memories, proposed for review

Usage: teammem dream MEMORY_DIR [--project ID] [--force] [--json]

Reads the daily logs (logs/YYYY/MM/YYYY-MM-DD.md) changed since the last consolidation. A model
groups them by topic into memories (updating an existing one rather than duplicating it); each
becomes a proposal (source "extraction") citing the logs it rests on. Without a model key the
topics are found by ## heading and only listed.
  --project ID  send the logs (secrets redacted) to the project's server, which runs its model
                and proposes (needs \`teammem login\`); without it everything stays on this
                machine and the candidates are only listed (the model when ANTHROPIC_API_KEY is
                set, else the headings).
  --force       run even when the gate below says wait
  --json        {"selector","candidates":[{"file","type","name","description","body","scope",
                "evidence","proposal"}],"fallbackReason","emptyReason"} or {"candidates":[],"skipped"}
At most once per 24 hours and, when MEMORY_DIR is Claude Code's <config>/projects/<folder>/memory,
only after 5 new sessions (transcripts) since the last run, or in all before the first: the
.consolidate-lock file in MEMORY_DIR records the last run (its mtime). A run that proposes nothing
(a listing without --project, a server without a model, a failure) leaves the lock as it was.`;

/** The daily logs sent at most (the API's body limit is 256 KB). */
const MAX_SENT_LOG_BYTES = 180_000;

type Candidate = { file: string; type: string; name: string; description: string; body: string; scope: string; evidence: unknown[]; refusal?: string; proposal?: { id?: string; state?: string; error?: string; skipped?: string } };
type Result = { selector: string; candidates: Candidate[]; fallbackReason?: string; emptyReason?: string };

export const dreamCommand: Command = {
  name: "dream",
  summary: "distil KAIROS daily logs into topic memory candidates (at most once a day)",
  help: HELP,
  options: { project: { type: "string" }, force: { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const [memoryDir, ...rest] = positionals;
    if (!memoryDir || rest.length > 0) {
      output.error("teammem dream: give one MEMORY_DIR.", "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const { claimConsolidation } = await import("../../lib/extraction/consolidate-lock");
    const { listDailyLogs } = await import("../../lib/extraction/distil-daily-logs");
    const claim = await claimConsolidation(memoryDir, new Date(), flags.force === true);
    if (!claim.isClaimed) {
      if (output.isJson) output.json({ candidates: [], skipped: claim.reason });
      else output.print(claim.reason);
      return EXIT.ok;
    }
    try {
      const { logs, skipped } = await listDailyLogs(memoryDir, claim.previousRun);
      for (const log of skipped) output.error(`teammem dream: skipped ${log.file}: ${log.reason}.`);
      const config = loadConfig();
      const result: Result = logs.length === 0 ? { selector: "rules", candidates: [] } : typeof flags.project === "string" ? await dreamOnServer(config, flags.project, logs) : await dreamLocally(config, logs);
      if (result.candidates.length === 0) result.emptyReason = whyNothing(result, logs.length, claim.previousRun);
      // C11: only logs that reached review are consolidated. A listing (no --project) or a server
      // that could not propose leaves them due, so the next run with --project still sends them.
      const hasProposed = result.candidates.some((candidate) => candidate.proposal?.id !== undefined);
      print(output, result);
      if (!hasProposed && result.candidates.length > 0 && !output.isJson) output.error("teammem dream: nothing was proposed, so the .consolidate-lock is left as it was: these logs are sent again by the next `teammem dream --project`.");
      await claim.release(hasProposed);
      return EXIT.ok;
    } catch (error) {
      await claim.release(false);
      throw error;
    }
  },
};

type Logs = import("../../lib/extraction/distil-daily-logs").DailyLog[];

async function dreamOnServer(config: import("../../lib/config").Config, projectId: string, logs: Logs): Promise<Result> {
  const { resolveApiTarget } = await import("../../lib/client/resolve-api-target");
  const { callTeammemApi } = await import("../../lib/client/teammem-api");
  const { newestWithin } = await import("../../lib/extraction/dream-with-model");
  const { redactSecrets } = await import("../../lib/secrets/redact-secrets");
  // Nothing secret leaves this machine, even though the server redacts again.
  const dailyLogs = newestWithin(logs, MAX_SENT_LOG_BYTES).map((log) => ({ ...log, text: redactSecrets(log.text).text }));
  return callTeammemApi<Result>(await resolveApiTarget(config), "POST", `/api/projects/${encodeURIComponent(projectId)}/extractions`, { dailyLogs });
}

async function dreamLocally(config: import("../../lib/config").Config, logs: Logs): Promise<Result> {
  const { distilDailyLogs } = await import("../../lib/extraction/distil-daily-logs");
  if (!config.anthropicApiKey) return { selector: "rules", candidates: distilDailyLogs(logs), fallbackReason: "no model key (ANTHROPIC_API_KEY): topics by heading" };
  const { dreamWithModel } = await import("../../lib/extraction/dream-with-model");
  const { isAppError } = await import("../../lib/errors");
  try {
    const settings = { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.extractionModel, timeoutMs: config.extractionTimeoutMs };
    return { selector: "model", candidates: await dreamWithModel({ settings, library: { manifest: "", readMemory: async () => null }, logs }) };
  } catch (error) {
    if (!isAppError(error) || error.code !== "MODEL_UNAVAILABLE") throw error;
    return { selector: "rules", candidates: distilDailyLogs(logs), fallbackReason: error.message };
  }
}

function print(output: Output, result: Result): void {
  if (output.isJson) return output.json(result);
  if (result.fallbackReason) output.error(`teammem dream: ${result.fallbackReason}.`);
  if (result.emptyReason) return output.print(result.emptyReason);
  for (const candidate of result.candidates) {
    const proposal = candidate.proposal;
    const outcome = !proposal ? (candidate.refusal ? ` (not proposed: ${candidate.refusal})` : " (listed)") : proposal.id ? ` → proposal ${proposal.id} (${proposal.state})` : proposal.skipped === "private" ? " → personal: not proposed to the team" : proposal.skipped ? " (listed: the server has no model, nothing proposed)" : ` → refused: ${proposal.error}`;
    output.print(`${candidate.file}  [${candidate.type}, ${candidate.scope}]  ${candidate.name}${outcome}`);
  }
}

/** Why a run has no candidates, in words that point at the cause (no logs, or logs without entries). */
function whyNothing(result: Result, logCount: number, previousRun: Date | null): string {
  const unchanged = " The .consolidate-lock is left as it was: the next run need not wait.";
  const logs = `${logCount} daily log${logCount === 1 ? "" : "s"}`;
  if (logCount === 0) {
    const since = previousRun ? `changed since the last consolidation (${previousRun.toISOString()})` : "found (logs/YYYY/MM/YYYY-MM-DD.md)";
    return `No daily log ${since}.${unchanged}`;
  }
  if (result.selector === "model") return `The model found nothing to consolidate in ${logs}.${unchanged}`;
  return `${logs} read, but no entry in them (a list item, or text under a ## heading).${unchanged}`;
}
