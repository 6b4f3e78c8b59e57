import { access } from "node:fs/promises";
import path from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { resolveApiTarget } from "../../lib/client/resolve-api-target";
import type { Config } from "../../lib/config";
import { isAppError, type ErrorCode } from "../../lib/errors";
import { findTeamMemoryDir } from "../../lib/sync/find-team-memory-dir";
import { syncStateFile } from "../../lib/sync/read-sync-head";
import { runSync } from "../../lib/sync/run-sync";
import { SYNC_EXIT, syncExitCode, type SyncReport } from "../../lib/sync/sync-report";
import type { Command } from "../command";
import { linesOf, type Output } from "../output";
import { maskSecretsInQuotedNames } from "../../lib/secrets/mask-secret-ranges";

const HELP = `teammem sync — keep this checkout's team memory (memory/team/) and the team store in step

Usage: teammem sync [DIR] [--project ID] [--dry-run] [--json] [--quiet] [--share-evidence]
       teammem sync --redact FILE [--yes] [--json]

DIR (default: the current directory) is a folder of the checkout; its memory directory is found
as Claude Code finds it. The project is --project, else the one used last time, else the one
whose repository URLs hold the checkout's origin. Store changes are written into team/ (each
file's mtime is the time of the store commit that last changed it); new, changed and deleted
files in team/ become proposals for review (never direct writes). Files that cannot travel
(over 250,000 bytes, holding a secret, invalid names, symbolic links) are listed with the reason.
  --dry-run  print the plan; change nothing (neither disk nor server)
  --quiet    one line at most, within a few seconds (for Claude Code's SessionStart hook):
             nothing at all, exit 0, where teammem is not set up (no login, no project for this
             checkout, never synced here); a refused token, a project you lost access to, an
             unreachable or slow server is one line and exit 0, never exit 2
  --share-evidence  attach to each proposal which session wrote the file and the few messages
             that led to it (redacted, a few KB); default: TEAMMEM_SHARE_SYNC_EVIDENCE, off
  --redact   show the redaction of FILE's secrets as a diff, then apply it (asks; --yes applies).
             FILE is a path, or the name sync listed (relative to team/). With --json: one
             document (the masked diff, isWritten), nothing asked; only --yes applies
Exit codes: 0 in step, 1 something needs attention (pending review, skipped, rejected, kept),
2 bad usage or the server could not be reached (local changes then wait in the outbox).`;

/** --quiet runs from a session's start: it gives up after this long rather than hold the session. */
const QUIET_BUDGET_MS = 4_000;
const PROGRESS_THRESHOLD = 50;
/** No login, no server named, no project for this checkout, not a checkout at all. */
const NOT_SET_UP = new Set<ErrorCode>(["UNAUTHORIZED", "CONFIG_INVALID", "NOT_FOUND", "INVALID_INPUT"]);
/**
 * Said after the error in a checkout that synced before: the server's message names what is
 * wrong (a revoked or expired token, a project the member no longer sees), not always what to do.
 */
const WHAT_TO_DO: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: "Until a working token is saved (`teammem login`), this checkout's team/ is not kept in step.",
  NOT_FOUND: "This checkout synced with it before: a lead of the project can add you back (or pass --project ID); until then team/ is not kept in step.",
};

export const syncCommand: Command = {
  name: "sync",
  summary: "keep this checkout's team memory and the team store in step (both ways, via review)",
  help: HELP,
  options: { project: { type: "string" }, "dry-run": { type: "boolean" }, quiet: { type: "boolean" }, "share-evidence": { type: "boolean" }, redact: { type: "string" }, yes: { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    if (positionals.length > 1) return output.error("teammem sync: one DIR at most.", "", ...linesOf(HELP)), SYNC_EXIT.unreachable;
    if (typeof flags.redact === "string") return (await import("./sync-redact")).redactTeamFile({ file: flags.redact, isConfirmed: flags.yes === true, output, findTeamDir: () => findTeamDirOf(loadConfig, path.resolve(positionals[0] ?? ".")) });
    const isQuiet = flags.quiet === true;
    const work = (async () => {
      const config = loadConfig();
      const target = await resolveApiTarget(config);
      return runSync({
        config,
        target,
        cwd: path.resolve(positionals[0] ?? "."),
        projectId: typeof flags.project === "string" ? flags.project : null,
        isDryRun: flags["dry-run"] === true,
        clientVersion: packageJson.version,
        shareEvidence: flags["share-evidence"] === true || config.shareSyncEvidence,
        lockWaitMs: isQuiet ? 1_000 : 5_000,
        onProgress: !isQuiet && !output.isJson && process.stderr.isTTY ? showProgress : undefined,
      });
    })();
    try {
      const report = isQuiet ? await withinBudget(work) : await work;
      if (!report) return output.print("teammem sync: the server is slow; skipped this time (run `teammem sync` later)."), isQuiet ? SYNC_EXIT.inStep : SYNC_EXIT.unreachable;
      printReport(output, report, isQuiet);
      const code = syncExitCode(report);
      // Offline is a normal state of a laptop: the outbox waits, and a session start says so in one line.
      return isQuiet && code === SYNC_EXIT.unreachable ? SYNC_EXIT.inStep : code;
    } catch (error) {
      if (!isAppError(error)) throw error;
      if (!isQuiet) return output.error(`teammem sync: ${error.message}`), SYNC_EXIT.unreachable;
      // Claude Code shows a hook's failure at every session start, in every repository: a
      // checkout teammem does not know is not an error there. One that synced before is set up:
      // a revoked token or a lost project would otherwise leave team/ stale without a word.
      if (!NOT_SET_UP.has(error.code)) output.print(`teammem sync: ${error.message}`);
      else if (await hasSyncedBefore(loadConfig, path.resolve(positionals[0] ?? "."))) output.print(`teammem sync: ${error.message} ${WHAT_TO_DO[error.code] ?? ""}`.trimEnd());
      return SYNC_EXIT.inStep;
    }
  },
};

async function withinBudget(work: Promise<SyncReport>): Promise<SyncReport | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUIET_BUDGET_MS)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this checkout has a sync state file: it synced before, so teammem is set up for it (a
 * damaged state, or one of a newer format, still says so).
 */
async function hasSyncedBefore(loadConfig: () => Config, cwd: string): Promise<boolean> {
  try {
    const config = loadConfig();
    const location = await findTeamMemoryDir({ cwd, env: config.claudeCodeEnv, homeDir: config.homeDir });
    await access(syncStateFile(location.memoryDir));
    return true;
  } catch {
    // No usable configuration, or no state file: nothing synced here, and the hook stays silent.
    return false;
  }
}

/** This checkout's team/ folder, or null where it cannot be found (no usable configuration, no checkout). */
async function findTeamDirOf(loadConfig: () => Config, cwd: string): Promise<string | null> {
  try {
    const config = loadConfig();
    return (await findTeamMemoryDir({ cwd, env: config.claudeCodeEnv, homeDir: config.homeDir })).teamDir;
  } catch {
    // Then FILE is only the path it names, and the error says which path was tried.
    return null;
  }
}

function showProgress(done: number, total: number): void {
  if (total < PROGRESS_THRESHOLD) return;
  process.stderr.write(`\rteammem sync: ${done}/${total} files${done === total ? "\n" : ""}`);
}

function printReport(output: Output, unmasked: SyncReport, isQuiet: boolean): void {
  const report = withLocalNamesMasked(unmasked);
  if (output.isJson) return output.json(report);
  if (isQuiet) return output.print(`teammem: ${summaryLine(report)}`);
  const prefix = report.isDryRun ? "would " : "";
  const what = `${report.teamDir} with ${report.projectId}${report.head ? ` at ${report.head.slice(0, 8)}` : ""}`;
  const lines: string[] = [report.isDryRun ? `Plan: ${what}.` : report.mode === "offline" ? `Not synced (the server could not be reached): ${what}.` : `Synced ${what}.`];
  if (report.stateProblem) lines.push(`  full comparison: ${report.stateProblem}`);
  for (const filePath of report.pulled.added) lines.push(`  ${prefix}add       ${filePath}`);
  for (const filePath of report.pulled.changed) lines.push(`  ${prefix}update    ${filePath}`);
  for (const filePath of report.pulled.removed) lines.push(`  ${prefix}remove    ${filePath} (retired in the store)`);
  for (const entry of report.proposed) lines.push(`  ${prefix}propose   ${entry.path} (${entry.kind})${entry.proposalId ? ` → ${entry.proposalId}` : ""}${entry.isAgainstStoreHead ? " — differs from the store's version and no sync state says which is newer: proposed as an edit of the store's version" : ""}`);
  for (const entry of report.landed) lines.push(`  landed    ${entry}`);
  for (const entry of report.waiting) lines.push(`  pending   ${entry.path}: ${describeState(entry.state)}${entry.storeChangedToo ? "; the store changed too: merged at approval" : ""}`);
  for (const entry of report.turnedDown) lines.push(`  ${entry.state.padEnd(9)} ${entry.path}${entry.reason ? `: ${entry.reason}` : ""}${entry.restored ? " — the store's version is back" : " — removed (not in the store)"}${entry.keptAt ? `; your text is kept in ${entry.keptAt}` : ""}`);
  for (const entry of report.kept) lines.push(`  kept      ${entry.path}: ${entry.reason}`);
  for (const entry of report.skipped) lines.push(`  skipped   ${entry.path}: ${entry.reason}`);
  for (const entry of report.refused) lines.push(`  refused   ${entry.path}: ${entry.reason}`);
  if (report.outbox > 0) lines.push(`  outbox    ${report.outbox} change(s) wait to be sent on the next sync`);
  if (report.offlineReason) lines.push(`  offline   ${report.offlineReason}`);
  lines.push(summaryLine(report));
  output.print(...lines);
}

/**
 * Names from the member's own folder that stay there may hold a credential (often why they stay):
 * printed masked, as `teammem lint` prints them. The store's names never do (the server refuses them).
 */
function withLocalNamesMasked(report: SyncReport): SyncReport {
  const masked = <Entry extends { path: string }>(entries: Entry[]): Entry[] => entries.map((entry) => ({ ...entry, path: maskSecretsInQuotedNames(entry.path) }));
  return { ...report, skipped: masked(report.skipped), refused: masked(report.refused), kept: masked(report.kept) };
}

function describeState(state: string): string {
  if (state === "blocked_secret") return "blocked (a secret was found)";
  if (state === "conflicted") return "conflicted (the reviewer resolves it)";
  return "pending review";
}

/** The one line --quiet prints (and the last line of the normal output). */
export function summaryLine(report: SyncReport): string {
  if (report.offlineReason && report.mode === "offline") return report.isDryRun ? `server unreachable; ${report.proposed.length} change(s) would wait in the outbox.` : `server unreachable; ${report.outbox} change(s) wait in the outbox.`;
  const moved = report.pulled.added.length + report.pulled.changed.length + report.pulled.removed.length;
  const parts = [
    moved ? `${moved} file(s) from the store` : "",
    report.proposed.length ? `${report.proposed.length} proposed${report.isDryRun ? "" : " (pending review)"}` : "",
    report.waiting.length ? `${report.waiting.length} pending review` : "",
    report.turnedDown.length ? `${report.turnedDown.length} turned down` : "",
    report.skipped.length ? `${report.skipped.length} skipped` : "",
    report.kept.length ? `${report.kept.length} kept locally` : "",
    report.refused.length ? `${report.refused.length} refused` : "",
    report.outbox ? `${report.outbox} in the outbox` : "",
  ].filter(Boolean);
  const verdict = syncExitCode(report) === SYNC_EXIT.inStep ? "team memory in step" : "team memory needs attention (teammem status)";
  return parts.length ? `${verdict}: ${parts.join(", ")}.` : `${verdict}.`;
}
