import { stat } from "node:fs/promises";
import path from "node:path";
import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import { AppError } from "../errors";
import { findKeyProblem } from "../memdir/validate-memory-key";

/**
 * Private memory belongs to one person: it is shown only to the account named as the home's
 * owner, and only in a browser session, since API tokens are scoped to team projects.
 */
export function isClaudeHomeOwner(config: Config, caller: Caller): boolean {
  if (config.claudeHome === null || config.claudeHomeOwner === null) return false;
  return caller.tokenProjectIds === null && caller.email.toLowerCase() === config.claudeHomeOwner;
}

/**
 * The memory directory of one project folder under the Claude home, for its owner only. Anyone
 * else, a hostile folder name, or a folder without memory gets the same NOT_FOUND: whether
 * someone's private folder exists is itself private.
 */
export async function resolvePrivateMemoryDir(config: Config, caller: Caller, folder: string): Promise<string> {
  const notFound = new AppError("NOT_FOUND", `There is no private memory folder "${folder.slice(0, 200)}" that you can see.`);
  if (!isClaudeHomeOwner(config, caller) || config.claudeHome === null) throw notFound;
  if (folder.includes("/") || findKeyProblem(folder) !== null) throw notFound;
  const memoryDir = path.join(config.claudeHome, "projects", folder, "memory");
  const info = await stat(memoryDir).catch(() => null);
  if (!info?.isDirectory()) throw notFound;
  return memoryDir;
}
