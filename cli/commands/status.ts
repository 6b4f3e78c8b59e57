import packageJson from "../../package.json" with { type: "json" };
import { resolveApiTarget } from "../../lib/client/resolve-api-target";
import { readSyncStatus, type SyncStatus } from "../../lib/sync/read-sync-status";
import type { Command } from "../command";
import { EXIT, linesOf } from "../output";
import { maskSecretsDeep, maskSecretsInQuotedNames } from "../../lib/secrets/mask-secret-ranges";

const HELP = `teammem status — where this checkout's team memory stands (one screen)

Usage: teammem status [DIR] [--project ID] [--json]

Shows the last sync, files added, changed or deleted in team/ since then (and files there that
cannot travel), proposals waiting for review (blocked, conflicted, rejected with the reviewer's
reason), changes still in the outbox, local deletions waiting (tombstones), and what the team
store gained since the last sync. Asks the server without recording a sync; offline, the local
part is shown. Exit codes: 0 in step, 1 something waits or needs attention.`;

/** Changed files named one by one; past this many, the rest are counted. */
const LISTED_CHANGES = 20;

export const statusCommand: Command = {
  name: "status",
  summary: "show pending, blocked and rejected proposals and what the store gained since the last sync",
  help: HELP,
  options: { project: { type: "string" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    if (positionals.length > 1) return output.error("teammem status: one DIR at most.", "", ...linesOf(HELP)), EXIT.usage;
    const config = loadConfig();
    // Names from the member's folder may hold a credential: printed masked, as lint prints them.
    const status = maskSecretsDeep(await readSyncStatus({ config, target: await resolveApiTarget(config), cwd: positionals[0] ?? process.cwd(), clientVersion: packageJson.version, projectId: typeof flags.project === "string" ? flags.project : null }), maskSecretsInQuotedNames) as SyncStatus;
    const needsAttention = status.proposals.length + status.outbox.length + status.refused.length + (status.storeGained?.changed ?? 0) + (status.storeGained?.removed ?? 0) + countLocal(status) > 0 || status.serverProblem !== null;
    if (output.isJson) return output.json(status), needsAttention ? EXIT.findings : EXIT.ok;
    output.print(...formatStatus(status));
    return needsAttention ? EXIT.findings : EXIT.ok;
  },
};

function formatStatus(status: SyncStatus): string[] {
  const lines = [`${status.teamDir}${status.projectId ? ` ↔ ${status.projectId}` : ""}`];
  lines.push(status.syncedAt ? `  last sync ${status.syncedAt} at ${status.syncedCommit?.slice(0, 8) ?? "(empty store)"}` : "  never synced");
  lines.push(...formatLocal(status));
  if (status.storeGained) {
    const { changed, removed } = status.storeGained;
    lines.push(changed + removed === 0 ? "  the store has nothing new since" : `  the store gained ${changed} changed file(s) and ${removed} removal(s) since: run teammem sync`);
  }
  for (const proposal of status.proposals) {
    const what = proposal.isRetirement ? "retirement of " : "";
    const where = proposal.state === "committed" ? (proposal.hasLanded ? "approved: teammem sync brings it in" : "approved, landing") : proposal.state === "rejected" ? `rejected${proposal.reason ? `: ${proposal.reason}` : ""}` : proposal.state === "blocked_secret" ? "blocked: a secret was found" : proposal.state === "conflicted" ? "conflicted: the store changed too; the reviewer merges" : proposal.state.replace("_", " ");
    lines.push(`  ${what}${proposal.path}: ${where}`);
  }
  for (const item of status.outbox) lines.push(`  outbox: ${item.isRetirement ? "retirement of " : ""}${item.path} (sent on the next sync)`);
  for (const tombstone of status.tombstones) lines.push(`  deleted here: ${tombstone} (not revived while its retirement is pending)`);
  for (const refusal of status.refused) lines.push(`  refused: ${refusal.isRetirement ? "retirement of " : ""}${refusal.path}: ${refusal.reason} (offered again once the file changes${refusal.isRetirement ? " or comes back" : ""})`);
  if (status.serverProblem) lines.push(`  server: ${status.serverProblem}`);
  return lines;
}

/** What in team/ waits for the next sync or cannot travel at all. */
function countLocal({ local }: SyncStatus): number {
  if (!local) return 0;
  return local.added.length + local.changed.length + local.deleted.length + local.cannotTravel.length + (local.isTeamDirMissing ? 1 : 0);
}

function formatLocal({ local }: SyncStatus): string[] {
  if (!local) return [];
  const lines: string[] = [];
  if (local.isTeamDirMissing) lines.push("  team/ is missing: teammem sync fills it again from the store");
  const changes = [...local.added.map((file) => `added    ${file}`), ...local.changed.map((file) => `changed  ${file}`), ...local.deleted.map((file) => `deleted  ${file}`)];
  if (changes.length > 0) lines.push(`  not yet synced: ${changes.length} file(s) changed here — run teammem sync`);
  for (const change of changes.slice(0, LISTED_CHANGES)) lines.push(`    ${change}`);
  if (changes.length > LISTED_CHANGES) lines.push(`    … and ${changes.length - LISTED_CHANGES} more`);
  for (const file of local.cannotTravel) lines.push(`  stays here: ${file.path}: ${file.reason}`);
  return lines;
}
