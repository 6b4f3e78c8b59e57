import type { MemoryType } from "../memdir/frontmatter";

export type ToolRuleMemory = { path: string; name: string | null; description: string | null; type: MemoryType | null };

// R2: for a tool in use, warnings still matter even though its usage notes do not.
const WARNING_WORDS =
  /\b(warn(ing|ings|s)?|gotchas?|known[ -]issues?|caveats?|pitfalls?|beware|careful|buggy|broken|breaks|fails?|never|don'?t|do not|footguns?|traps?|flaky)\b/i;

// R2 skips usage documentation only: how to call the tool, its commands, flags or syntax. A
// memory stating this team's facts about the tool (which PagerDuty service pages the on-call,
// which Grafana board to read, which kubectl contexts exist) answers questions the tool cannot,
// and dropping it once lost the one memory that answered "who gets paged".
const USAGE_WORDS =
  /\b(usage|how[ -]to|howto|use [^\s,;]+ (to|for)|syntax|flags|options|commands?|sub-?commands|cheat[ -]?sheet|api[ -]reference|reference (docs?|manual)|docs? for|documentation|manual|examples?|parameters|arguments|invoc(ation|ations)|invoke)\b/i;

/**
 * R2: a `reference` memory that documents how to use a tool the agent used recently is noise (the
 * agent is already using it), unless it warns about the tool. A tool is named in the memory's
 * name, description or file name; `mcp__server__tool` is also matched by its server name. It
 * reads as usage documentation when its name, description or file name says so ("usage",
 * "commands", "cheat sheet", "use X to …").
 */
export function isToolInUseReference(memory: ToolRuleMemory, recentTools: readonly string[]): boolean {
  if (memory.type !== "reference" || recentTools.length === 0) return false;
  const text = `${memory.name ?? ""} ${memory.description ?? ""}`;
  if (WARNING_WORDS.test(text)) return false;
  const file = memory.path.replace(/\.md$/, "");
  if (!USAGE_WORDS.test(`${text} ${file.replace(/[_/-]+/g, " ")}`)) return false;
  const words = toWords(`${text} ${file}`);
  return recentTools.some((tool) => toolKeys(tool).some((key) => containsPhrase(words, key)));
}

/** The words a tool is known by in memories: its name, and an MCP tool's server name. */
export function toolSearchWords(recentTools: readonly string[]): string[] {
  return recentTools.map((tool) => mcpServer(tool) ?? tool.replace(/[^A-Za-z0-9]+/g, " ").trim()).filter((words) => words.length >= 3);
}

function mcpServer(tool: string): string | null {
  return /^mcp__([^_]+(?:_[^_]+)*)__/.exec(tool)?.[1]?.replace(/_/g, " ") ?? null;
}

function toolKeys(tool: string): string[][] {
  const keys = [toWords(tool)];
  const server = mcpServer(tool);
  if (server) keys.push(toWords(server));
  return keys.filter((key) => key.join("").length >= 3);
}

function toWords(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}
