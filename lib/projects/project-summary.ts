import { readStaleAfterDays, type StaleAfterDays } from "../stale/stale-thresholds";
import type { StoreProject } from "../store/read-store";
import { parseStoredRepoUrls } from "./validate-project-fields";

/** A project as lists, pages and the API show it: the database's settings, the store's counts. */
export type ProjectSummary = {
  id: string;
  name: string;
  /** The first repository URL (older readers); null when none is set. */
  remote: string | null;
  repoUrls: string[];
  archivedAt: Date | null;
  allowSelfApproval: boolean;
  /** The code repository staleness checks read (a git URL or server path), or null. */
  codeRepo: string | null;
  /** Per type, the days after which a memory counts as old (null: never), defaults included. */
  staleAfterDays: StaleAfterDays;
  createdAt: Date;
  memoryCount: number;
  countsByType: StoreProject["countsByType"];
  lastChangedAt: Date | null;
  memberCount: number;
  leadCount: number;
};

export type ProjectRow = {
  id: string;
  name: string;
  remoteUrl: string | null;
  repoUrls: string;
  archivedAt: Date | null;
  allowSelfApproval: boolean;
  codeRepo?: string | null;
  staleAfterDays?: string | null;
  createdAt: Date;
  members: { role: string }[];
};

/** Select this with the project row to build a summary. */
export const PROJECT_ROW_INCLUDE = { members: { select: { role: true } } } as const;

const NO_MEMORIES: StoreProject["countsByType"] = { user: 0, feedback: 0, project: 0, reference: 0, untyped: 0 };

/** `stored` is null for a project the store does not list yet (or an empty store): zero memories. */
export function toProjectSummary(row: ProjectRow, stored: StoreProject | null): ProjectSummary {
  const repoUrls = readRepoUrls(row);
  return {
    id: row.id,
    name: row.name,
    remote: repoUrls[0] ?? null,
    repoUrls,
    archivedAt: row.archivedAt,
    allowSelfApproval: row.allowSelfApproval,
    codeRepo: row.codeRepo ?? null,
    staleAfterDays: readStaleAfterDays(row.staleAfterDays),
    createdAt: row.createdAt,
    memoryCount: stored?.memoryCount ?? 0,
    countsByType: stored?.countsByType ?? { ...NO_MEMORIES },
    lastChangedAt: stored?.lastChangedAt ?? null,
    memberCount: row.members.length,
    leadCount: row.members.filter((member) => member.role === "lead").length,
  };
}

/** Projects made before `repoUrls` existed (the demo) only have `remoteUrl`. */
export function readRepoUrls(row: Pick<ProjectRow, "remoteUrl" | "repoUrls">): string[] {
  const urls = parseStoredRepoUrls(row.repoUrls);
  if (urls.length > 0) return urls;
  return row.remoteUrl ? [row.remoteUrl] : [];
}
