import type { Command } from "../command";
import { EXIT, type Output } from "../output";

const HELP = `teammem dream — distil KAIROS daily logs into topic memory candidates

Usage: teammem dream MEMORY_DIR [--project ID] [--force] [--json]

Reads the daily logs (logs/YYYY/MM/YYYY-MM-DD.md) changed since the last consolidation and groups
their entries by topic (## heading) into candidates. At most once per 24 hours: the
.consolidate-lock file in MEMORY_DIR records the last run (its mtime); --force runs anyway.
  --project ID  propose each candidate to the project's review queue (needs \`teammem login\`);
                without it the candidates are only listed.
  --json        {"candidates":[{"file","type","name","description","body","scope","evidence"}]}
A run that fails puts the lock's time back, so it is retried next time.`;

type Candidate = { file: string; name: string; description: string; type: string; body: string; scope: string; evidence: unknown[] };

export const dreamCommand: Command = {
  name: "dream",
  summary: "distil KAIROS daily logs into topic memory candidates (at most once a day)",
  help: HELP,
  options: { project: { type: "string" }, force: { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const [memoryDir, ...rest] = positionals;
    if (!memoryDir || rest.length > 0) {
      output.error(`teammem dream: give one MEMORY_DIR.\n\n${HELP}`);
      return EXIT.usage;
    }
    const { claimConsolidation } = await import("../../lib/extraction/consolidate-lock");
    const { distilDailyLogs, listDailyLogs } = await import("../../lib/extraction/distil-daily-logs");
    const claim = await claimConsolidation(memoryDir, new Date(), flags.force === true);
    if (!claim.isClaimed) {
      const message = `Last consolidation ${claim.previousRun.toISOString()}; the next one may run after ${claim.nextRun.toISOString()} (or use --force).`;
      if (output.isJson) output.json({ candidates: [], skipped: message });
      else output.print(message);
      return EXIT.ok;
    }
    try {
      const candidates = distilDailyLogs(await listDailyLogs(memoryDir, claim.previousRun));
      if (typeof flags.project === "string") await propose(loadConfig(), flags.project, candidates, output);
      if (output.isJson) output.json({ candidates });
      else if (candidates.length === 0) output.print("No daily log entries since the last consolidation.");
      else for (const candidate of candidates) output.print(`${candidate.file}  ${candidate.name}: ${candidate.body.split("\n").filter((line) => line.startsWith("- ")).length} entries`);
      await claim.release(true);
      return EXIT.ok;
    } catch (error) {
      await claim.release(false);
      throw error;
    }
  },
};

async function propose(config: import("../../lib/config").Config, projectId: string, candidates: Candidate[], output: Output): Promise<void> {
  const { resolveApiTarget } = await import("../../lib/client/resolve-api-target");
  const { callTeammemApi } = await import("../../lib/client/teammem-api");
  const { formatCandidateFile } = await import("../../lib/extraction/format-candidate-file");
  const target = await resolveApiTarget(config);
  for (const candidate of candidates) {
    const content = formatCandidateFile({ ...candidate, type: "project", scope: "team", evidence: [], confidence: "low" });
    const { proposal } = await callTeammemApi<{ proposal: { id: string } }>(target, "POST", `/api/projects/${encodeURIComponent(projectId)}/proposals`, { path: candidate.file, content, provenance: { kind: "dream", logs: candidate.evidence.map((item) => (item as { uuid: string }).uuid).slice(0, 10) } });
    if (!output.isJson) output.print(`${candidate.file} → proposal ${proposal.id}`);
  }
}
