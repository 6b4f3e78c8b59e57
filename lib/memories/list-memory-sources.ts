import type { Caller } from "../auth/resolve-caller";
import { listVisibleProjectIds } from "../auth/permissions";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { listClaudeProjects, type ClaudeProjectMemory } from "../memdir/list-claude-projects";
import { summarizeStoreProjects } from "../read-model/summarize-store-projects";
import type { StoreProject } from "../store/read-store";
import { isClaudeHomeOwner } from "./resolve-private-memory-dir";

export type MemorySources = {
  /** Store projects the caller may read. */
  projects: StoreProject[];
  /** Why private memory is or is not listed: no home configured (a team server), or not the owner. */
  privateStatus: "shown" | "no-home" | "not-owner";
  /** The owner's project folders that hold memory; empty unless shown. */
  privateFolders: ClaudeProjectMemory[];
  claudeHome: string | null;
};

export type ListMemorySourcesOptions = { config: Config; db: Db; caller: Caller };

/** Everything the caller can browse: team projects in the store and, for its owner, the private folders. */
export async function listMemorySources({ config, db, caller }: ListMemorySourcesOptions): Promise<MemorySources> {
  const visible = new Set(await listVisibleProjectIds(db, caller));
  const projects = (await summarizeStoreProjects(config, db)).filter((project) => visible.has(project.id));
  const privateStatus = config.claudeHome === null ? "no-home" : isClaudeHomeOwner(config, caller) ? "shown" : "not-owner";
  const privateFolders = privateStatus === "shown" && config.claudeHome ? await listClaudeProjects(config.claudeHome) : [];
  return { projects, privateStatus, privateFolders, claudeHome: config.claudeHome };
}
