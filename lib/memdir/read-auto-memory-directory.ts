import { readFile } from "node:fs/promises";
import path from "node:path";
import { expandHome } from "./resolve-config-home";

export type SettingsSource = "policy" | "flag" | "local" | "user";

export type ReadAutoMemoryDirectoryOptions = {
  homeDir: string;
  configHome: string;
  /** The directory Claude Code runs in; its `.claude/settings.local.json` is the local source. */
  projectDir?: string;
  /** Managed (policy) settings file; its location depends on the platform, so the caller says. */
  policySettingsFile?: string;
  /** Settings given with `--settings` on the command line, already parsed. */
  flagSettings?: Record<string, unknown>;
};

export type AutoMemoryDirectory = { dir: string; source: SettingsSource } | null;

/**
 * P2, P3, C3: `autoMemoryDirectory` from policy, flag, local and user settings, in that order.
 * Project settings (`.claude/settings.json`, checked in) are NEVER read: a hostile repository
 * could otherwise point memory writes at `~/.ssh`. Invalid values are skipped, not fatal.
 */
export async function readAutoMemoryDirectory(options: ReadAutoMemoryDirectoryOptions): Promise<AutoMemoryDirectory> {
  const sources: Array<[SettingsSource, () => Promise<unknown>]> = [
    ["policy", () => (options.policySettingsFile ? readSettingsFile(options.policySettingsFile) : Promise.resolve(null))],
    ["flag", () => Promise.resolve(options.flagSettings ?? null)],
    ["local", () => (options.projectDir ? readSettingsFile(path.join(options.projectDir, ".claude", "settings.local.json")) : Promise.resolve(null))],
    ["user", () => readSettingsFile(path.join(options.configHome, "settings.json"))],
  ];
  for (const [source, read] of sources) {
    const settings = await read();
    const value = typeof settings === "object" && settings !== null && "autoMemoryDirectory" in settings ? settings.autoMemoryDirectory : undefined;
    const dir = acceptMemoryDirectoryOverride(value, options.homeDir);
    if (dir) return { dir, source };
  }
  return null;
}

/**
 * C3: an override that is empty, relative, shorter than 3 characters, a bare drive (`C:`), a
 * UNC path, contains NUL, or is `~` / `~/..` is ignored. `~/` is expanded first.
 */
export function acceptMemoryDirectoryOverride(value: unknown, homeDir: string): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (trimmed.length < 3 || trimmed.includes("\0")) return null;
  if (/^[A-Za-z]:[\\/]?$/.test(trimmed) || /^(?:\\\\|\/\/)/.test(trimmed)) return null;
  if (trimmed === "~" || /^~[\\/]?$/.test(trimmed) || /^~[\\/]\.\.(?:[\\/]|$)/.test(trimmed)) return null;
  const expanded = expandHome(trimmed, homeDir);
  const isAbsolute = path.isAbsolute(expanded) || /^[A-Za-z]:[\\/]/.test(expanded);
  if (!isAbsolute) return null;
  const normalised = path.normalize(expanded);
  if (normalised === path.normalize(homeDir) || normalised === path.parse(normalised).root) return null;
  return normalised;
}

async function readSettingsFile(filePath: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(filePath, "utf8"));
  } catch {
    return null; // a missing or broken settings file contributes nothing, as in Claude Code
  }
}
