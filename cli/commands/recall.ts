import { recallMemories } from "../../lib/recall/recall-memories";
import type { Command } from "../command";
import { EXIT, linesOf } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

const HELP = `teammem recall — which memories (up to 5) an agent would be given for a prompt

Usage: teammem recall DIR --query "…" [--recent-tools a,b] [--surfaced a.md,b.md] [--any-length] [--json]

Scans DIR as Claude Code does (team/ included), drops already-surfaced files, then asks the model
when ANTHROPIC_API_KEY is set (TEAMMEM_RECALL_MODEL, ANTHROPIC_BASE_URL), else the local ranker.
A model failure falls back to the local ranker and says so. One-word queries return nothing
unless --any-length. --json prints {"selector","latencyMs","selected":[{"file","mtime","age",
"reason"?,"injection"}],"dropped":[…],"manifest"}. Works offline on a local folder.`;

export const recallCommand: Command = {
  name: "recall",
  summary: "show the memories an agent would be given for a query",
  help: HELP,
  options: { query: { type: "string", short: "q" }, "recent-tools": { type: "string" }, surfaced: { type: "string" }, "any-length": { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const memoryDir = await readMemoryDirArg("recall", positionals);
    const query = typeof flags.query === "string" ? flags.query.trim() : "";
    if (!query) {
      output.error("teammem recall: --query is required.", "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const config = loadConfig();
    const result = await recallMemories({
      memoryDir,
      query,
      recentTools: splitList(flags["recent-tools"]),
      alreadySurfaced: splitList(flags.surfaced),
      allowSingleWord: flags["any-length"] === true,
      // Only --json prints the manifest; building it costs a fresh process more than the ranking.
      includeManifest: output.isJson,
      model: config.anthropicApiKey ? { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.recallModel } : null,
    });
    if (output.isJson) {
      output.json(result);
      return EXIT.ok;
    }
    output.print(`selector: ${result.selector}${result.fallbackReason ? ` (fell back: ${result.fallbackReason})` : ""}${result.skipReason ? ` (${result.skipReason})` : ""}, ${Math.round(result.latencyMs)} ms`);
    if (result.selected.length === 0) output.print("No memory selected.");
    for (const memory of result.selected) output.print(`  ${memory.file}  (${memory.age})${memory.reason ? `  ${memory.reason}` : ""}`);
    for (const dropped of result.dropped) output.print(`  dropped ${dropped.file}: ${dropped.reason}`);
    return EXIT.ok;
  },
};

function splitList(value: string | boolean | undefined): string[] {
  return typeof value === "string" ? value.split(",").map((item) => item.trim()).filter(Boolean) : [];
}
