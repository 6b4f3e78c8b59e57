import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { AppError, isAppError } from "../errors";
import { isMemoryFileName } from "../memdir/list-markdown-files";
import { findKeyProblem } from "../memdir/validate-memory-key";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { findStoreNameProblem } from "../review/find-store-name-problem";
import { reachFaultPoint } from "../store/fault-points";
import { createSyncWriteEvidenceFinder } from "../transcripts/find-sync-write-evidence";
import { adoptOpenRetirements } from "./adopt-open-retirements";
import { applyDecisions } from "./apply-decisions";
import { applyStoreChanges } from "./apply-store-changes";
import { assertTeamFolder } from "./assert-team-folder";
import { captureLocalChanges } from "./capture-local-changes";
import { findSyncProject } from "./find-sync-project";
import type { TeamMemoryLocation } from "./find-team-memory-dir";
import type { RunSyncOptions } from "./run-sync";
import { keepTrustworthy, scanTeamDir } from "./scan-team-dir";
import { cancelDroppedSubmissions, sendOutbox, withdrawnEntry, withdrawProposals } from "./send-outbox";
import { fetchSyncAnswer } from "./sync-api";
import { emptyReport, type SyncReport } from "./sync-report";
import { assertReadableFormat, chooseSyncState, keepSyncStateAside, parseSyncState, proposalIdsToAsk, saveSyncState, type SyncState } from "./sync-state";
import { createTeamFiles, type TeamFiles } from "./team-files";

/** What `runSync` read before it: the state file's text (and its JSON), and the answer its quiet path got. */
export type SyncStart = { stored: string | null; parsed: unknown; prefetched: { since: string; answer: SyncAnswer } | null };

/**
 * The whole sync, under the lock `runSync` holds (docs/store.md, "Member sync", steps 3-10): choose
 * the state; scan team/; fetch and check the whole answer; settle decided proposals; capture local
 * changes into the outbox (saved); send it; write the store's changes; save the state. Offline,
 * local changes wait in the outbox and nothing else moves.
 */
export async function syncInFull(options: RunSyncOptions, location: TeamMemoryLocation, { stored, parsed, prefetched }: SyncStart): Promise<SyncReport> {
  const saved = parseSyncState(stored, parsed);
  assertReadableFormat(saved, location.memoryDir);
  const projectId = await findSyncProject(options.target, { flagProjectId: options.projectId, rememberedProjectId: saved.state?.server === options.target.server ? saved.state.projectId : null, checkoutRoot: location.checkoutRoot });
  const { state, problem, foreign } = chooseSyncState(saved, options.target.server, projectId);
  await assertNotAnotherProjectsFolder(foreign, projectId, location.teamDir);
  const report = emptyReport({ projectId, memoryDir: location.memoryDir, teamDir: location.teamDir, isDryRun: options.isDryRun, stateProblem: problem });
  let basis = state === saved.state ? saved.basis : null; // what the file holds, unless that is another project's state
  // Another project's state is moved aside just before this one first replaces it: a sync that
  // fails first (a mistyped --project) leaves it where it was.
  let isForeignKept = foreign === null;
  const save = async () => {
    if (options.isDryRun) return;
    if (!isForeignKept) isForeignKept = Boolean(await keepSyncStateAside(location.memoryDir, foreign!));
    basis = await saveSyncState(location.memoryDir, state, basis);
  };
  const files = createTeamFiles(location.memoryDir, location.teamDir, { isDryRun: options.isDryRun });
  const hasTeamDir = await assertTeamFolder(location.teamDir);
  const syncedMemories = Object.keys(state.files).filter((filePath) => filePath !== "MEMORY.md").length;
  if (!hasTeamDir && syncedMemories > 0) await startFreshCopy(state, files, report, "missing");
  // Emptied (or deleted and made again) is the same as deleted: a fresh copy, not a retirement of
  // every memory. One memory's file deleted alone stays a retirement, as any deleted file is.
  else if (hasTeamDir && syncedMemories > 1 && !(await holdsAnyMemoryFile(location.teamDir))) await startFreshCopy(state, files, report, "empty");
  // The store's index deleted by hand comes back with the next full listing (it is never proposed).
  else if (hasTeamDir && state.files["MEMORY.md"] && !(await lstat(path.join(location.teamDir, "MEMORY.md")).catch(() => null))) state.needsFullComparison = true;
  const scan = await scanTeamDir(location.teamDir, state.seen);
  // Saved with every state from here on: records for files this run read or wrote.
  const recordSeen = () => {
    state.seen = keepTrustworthy(scan.seen, scan.startedAtMs);
  };
  report.skipped = scan.skipped;

  let answer: SyncAnswer;
  try {
    const since = state.needsFullComparison ? null : state.syncedCommit;
    const proposalIds = proposalIdsToAsk(state, { isAdvancing: true });
    // The quiet path asked this very question of the store already (it found the store moved).
    const isAsked = prefetched !== null && prefetched.answer.projectId === projectId && prefetched.since === since && proposalIds.length === 0;
    answer = isAsked ? prefetched!.answer : await fetchSyncAnswer(options.target, { projectId, since, proposalIds, clientVersion: options.clientVersion, isPeek: options.isDryRun });
  } catch (error) {
    if (!isAppError(error) || error.code !== "SERVER_UNAVAILABLE" || error.details.isMalformedAnswer) throw error;
    captureLocalChanges({ state, scan, answer: null, report });
    recordSeen();
    await save();
    return { ...planned(report, state), mode: "offline", offlineReason: error.message };
  }
  assertSafePaths(answer);
  answer = dropNamesNotWritten(answer, report);
  report.head = answer.head;
  report.mode = answer.isUnchanged ? "unchanged" : answer.full ? "full" : "changes";

  // A team/ filled afresh (deleted as a whole, or a first sync) takes every store file.
  if (hasTeamDir) adoptOpenRetirements(state, scan, answer, location.checkoutRoot);
  await applyDecisions({ state, scan, proposals: answer.proposals, files, report });
  const withdrawals = captureLocalChanges({ state, scan, answer, report });
  // The outbox and the settled decisions are durable before anything is sent or replaced. When
  // there are neither (a no-op), the state is saved once, at the end.
  if (state.outbox.length > 0 || state.cancelled.length > 0 || withdrawals.length > 0 || report.landed.length > 0 || report.turnedDown.length > 0) await save();
  if (options.isDryRun) {
    for (const withdrawal of withdrawals) report.turnedDown.push(withdrawnEntry(withdrawal, true));
  } else {
    try {
      await withdrawProposals({ target: options.target, state, report, onSent: save }, withdrawals);
      await cancelDroppedSubmissions({ target: options.target, state, report, onSent: save });
      await sendOutbox({ target: options.target, state, report, provenance: { checkoutRoot: location.checkoutRoot, clientVersion: options.clientVersion, findWriteEvidence: options.shareEvidence ? createSyncWriteEvidenceFinder({ env: options.config.claudeCodeEnv, homeDir: options.config.homeDir, cwd: options.cwd, teamDir: location.teamDir }) : undefined }, onSent: save });
    } catch (error) {
      if (!isAppError(error)) throw error;
      report.offlineReason = error.message; // the rest waits in the outbox; the pull still runs
    }
  }
  const { isComplete, isHeadHeld } = await applyStoreChanges({ state, scan, answer, files, report, onProgress: options.onProgress });
  reachFaultPoint(options.config, "sync-after-files");
  // A file this disk refused is asked for again next time: the head is recorded only when all landed.
  if (answer.head !== null && isHeadHeld) state.syncedCommit = answer.head;
  state.needsFullComparison = !isComplete;
  state.syncedAt = new Date().toISOString();
  recordSeen();
  await save();
  return finishReport(report, state, answer);
}

/**
 * team/ deleted as a whole means "give me a fresh copy of the store", never "retire every
 * memory": the folder is filled again, and what waited on this disk is let go here. Proposals in
 * review stay on the server and are decided there (a landed one arrives as a store change);
 * changes not sent yet, whose text exists nowhere else, are kept in memory.teammem-kept/.
 */
async function startFreshCopy(state: SyncState, files: TeamFiles, report: SyncReport, why: "missing" | "empty"): Promise<void> {
  const unsent = state.outbox.filter((item) => item.content !== null);
  for (const item of unsent) await files.keepAside(item.path, item.content!, `teammem: your team/ folder was ${why} and is filled again from the store; this change to ${item.path} had not been sent yet:`);
  const inReview = Object.keys(state.pending).length;
  Object.assign(state, { files: {}, seen: {}, outbox: [], pending: {}, tombstones: {}, refused: {}, needsFullComparison: true });
  report.stateProblem = [
    `your team/ folder was ${why}: it is filled again from the store (to retire a memory, delete its file, not the folder or all of them)`,
    inReview ? `your ${inReview} proposal(s) in review stay on the server` : "",
    unsent.length ? `${unsent.length} change(s) not sent yet are kept in memory.teammem-kept/` : "",
  ].filter(Boolean).join("; ");
}

/**
 * team/ synced with another project is not this one's to fill: every memory in it would be
 * proposed to `projectId` as new (`--project` mistyped, or a project sharing the repository).
 * Refused before anything is asked, moved or written; a folder moved away first starts afresh.
 */
async function assertNotAnotherProjectsFolder(foreign: SyncState | null, projectId: string, teamDir: string): Promise<void> {
  if (!foreign || foreign.projectId === projectId || !Object.keys(foreign.files).some((filePath) => filePath !== "MEMORY.md")) return;
  if (!(await holdsAnyMemoryFile(teamDir))) return;
  throw new AppError(
    "INVALID_INPUT",
    `${teamDir} holds the memories of project ${foreign.projectId}, which this checkout syncs with; syncing it with ${projectId} would propose every one of them there. Sync without --project to stay with ${foreign.projectId}, or move that team/ folder away first to start ${projectId} afresh.`,
  );
}

/** Whether any `*.md` other than an index is in the folder, at any depth (stops at the first). */
async function holdsAnyMemoryFile(folder: string): Promise<boolean> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  if (entries.some((entry) => !entry.isDirectory() && isMemoryFileName(entry.name))) return true;
  for (const entry of entries) if (entry.isDirectory() && (await holdsAnyMemoryFile(path.join(folder, entry.name)))) return true;
  return false;
}

/** A path the server names is written on this disk: one that could escape team/ stops the sync before any write. */
function assertSafePaths(answer: SyncAnswer): void {
  const paths = [...answer.files.map((file) => file.path), ...answer.removed, ...answer.proposals.map((proposal) => proposal.path)];
  const unsafe = paths.find((filePath) => findKeyProblem(filePath) !== null || !filePath.endsWith(".md"));
  if (unsafe !== undefined) throw new AppError("SERVER_UNAVAILABLE", "The teammem server named a file this client will not write (unsafe path); nothing was written.", { details: { isMalformedAnswer: true } });
}

/**
 * A name that stays inside team/ but that the store would not take today (control or invisible
 * characters, a hidden folder such as `.git/`, too deep, a MEMORY.md below the top): not written
 * or removed here, and listed with the reason. The rest of the answer is used.
 */
function dropNamesNotWritten(answer: SyncAnswer, report: SyncReport): SyncAnswer {
  const problemOf = (filePath: string) => (filePath === "MEMORY.md" ? null : path.posix.basename(filePath) === "MEMORY.md" ? "only the top folder has an index" : findStoreNameProblem(filePath));
  const refused = new Map<string, string>();
  for (const filePath of [...answer.files.map((file) => file.path), ...answer.removed]) {
    const problem = problemOf(filePath);
    if (problem) refused.set(filePath, problem);
  }
  if (refused.size === 0) return answer;
  for (const [filePath, problem] of refused) report.skipped.push({ path: JSON.stringify(filePath).slice(1, -1), reason: `the store holds this name, but this client does not write it: ${problem}` });
  return { ...answer, files: answer.files.filter((file) => !refused.has(file.path)), removed: answer.removed.filter((filePath) => !refused.has(filePath)) };
}

function finishReport(report: SyncReport, state: SyncState, answer: SyncAnswer): SyncReport {
  const states = new Map(answer.proposals.map((proposal) => [proposal.id, proposal.state]));
  for (const [filePath, pending] of Object.entries(state.pending)) {
    const entry = report.waiting.find((waiting) => waiting.path === filePath);
    const proposalState = states.get(pending.proposalId) ?? "submitted";
    if (entry) entry.state = proposalState;
    else report.waiting.push({ path: filePath, state: proposalState, storeChangedToo: false });
  }
  // Those proposed in this very run are listed as proposed, not twice.
  report.waiting = report.waiting.filter((waiting) => !report.proposed.some((proposed) => proposed.path === waiting.path) || waiting.storeChangedToo);
  return planned(report, state);
}

/**
 * The outbox as the report gives it. A dry run queues nothing: what a sync would send, queued
 * earlier (offline) or found now, is listed under proposed ("would propose"), and the outbox is 0.
 */
function planned(report: SyncReport, state: SyncState): SyncReport {
  if (!report.isDryRun) return { ...report, outbox: state.outbox.length };
  const proposed = [...report.proposed];
  for (const item of state.outbox) {
    if (proposed.some((entry) => entry.path === item.path)) continue;
    proposed.push({ path: item.path, kind: item.content === null ? "retirement" : item.baseBlob ? "change" : "new", proposalId: null });
  }
  return { ...report, proposed, outbox: 0 };
}
