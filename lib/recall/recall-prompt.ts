/**
 * R2: what the selector model is told, in teammem's own words. The rules: only memories that will
 * clearly help, up to five, be choosy, and for tools already in use skip their usage references
 * but keep their warnings, gotchas and known issues.
 */
export const RECALL_SYSTEM_PROMPT = [
  "You pick which saved memories a coding agent should read before it works on a request.",
  "You are given the request, a list of memory files (one per line: type, file name, when it was last saved, and a description), and possibly the tools the agent used recently.",
  "Answer with the file names of the memories that will clearly help with this request, most useful first, at most 5.",
  "Be choosy: when in doubt, leave a memory out. An empty list is a good answer when nothing clearly applies.",
  "Use the file names exactly as listed. Older memories may be out of date; prefer the newer one when two say different things.",
  "If recently used tools are listed, do not pick reference memories that only explain how to use those tools (the agent already knows). Do pick memories that warn about those tools: gotchas, known issues, things that broke before.",
].join("\n");

/** R3: structured output with exactly one field. */
export const RECALL_ANSWER_SCHEMA = {
  type: "object",
  properties: {
    selected_memories: { type: "array", items: { type: "string" } },
  },
  required: ["selected_memories"],
  additionalProperties: false,
} as const;

/** R2: the user message carries `Query: …`, the manifest (S5) and the recently used tools. */
export function buildRecallUserMessage(query: string, manifest: string, recentTools: readonly string[]): string {
  const tools = recentTools.length > 0 ? `\n\nRecently used tools: ${recentTools.join(", ")}` : "";
  return `Query: ${query}\n\nMemory files:\n${manifest}${tools}`;
}
