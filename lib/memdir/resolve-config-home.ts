import path from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

/** C3: Claude Code's config home is `CLAUDE_CONFIG_DIR` when set, else `~/.claude`. */
export function resolveConfigHome(env: Env, homeDir: string): string {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  return configured ? path.resolve(expandHome(configured, homeDir)) : path.join(homeDir, ".claude");
}

/** `~` and `~/…` expand to the home directory; nothing else is touched. */
export function expandHome(value: string, homeDir: string): string {
  if (value === "~") return homeDir;
  if (value.startsWith("~/")) return path.join(homeDir, value.slice(2));
  return value;
}
