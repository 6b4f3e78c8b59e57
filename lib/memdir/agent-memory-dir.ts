import path from "node:path";

/** G1: user scope lives in the config home; project is checked in; local is not. */
export type AgentMemoryScope = "user" | "project" | "local";

export type AgentMemoryDirOptions = {
  scope: AgentMemoryScope;
  agentType: string;
  /** Needed for the user scope. */
  configHome: string;
  /** Needed for the project and local scopes. */
  projectRoot: string;
};

/** G2: a plugin agent type such as `plugin:reviewer` cannot be a folder name, so `:` becomes `-`. */
export function agentFolderName(agentType: string): string {
  return agentType.replace(/:/g, "-");
}

/** G1: where one agent type keeps its memory in one scope. */
export function agentMemoryDir(options: AgentMemoryDirOptions): string {
  return path.join(agentScopeDir(options), agentFolderName(options.agentType));
}

/** G1: the folder holding every agent type's memory for one scope. */
export function agentScopeDir(options: Omit<AgentMemoryDirOptions, "agentType">): string {
  if (options.scope === "user") return path.join(options.configHome, "agent-memory");
  const scopeFolder = options.scope === "project" ? "agent-memory" : "agent-memory-local";
  return path.join(options.projectRoot, ".claude", scopeFolder);
}
