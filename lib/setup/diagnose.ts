import { randomUUID } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { secretMismatch, unusableSecretFile, type Candidate } from "../auth/auth-secret";
import { authSecretPath, readAuthSecretFile } from "../auth/read-auth-secret-file";
import type { Config } from "../config";
import { createDb } from "../db/client";
import { compareSecretWithDatabase } from "../db/instance-secret-check";
import { isAppError } from "../errors";
import { listClaudeProjects } from "../memdir/list-claude-projects";
import { readRecordedCommit } from "../read-model/sync-read-model";
import { assertRemoteReachable, displayRemote, isWorkingClone, originUrl, readStoreMain } from "../store/git";
import { assertStoreKeepsHistory, readCloneHead, storeOnThisDisk } from "../store/store-history";
import { checkSqliteFile } from "./check-sqlite-file";

export type CheckStatus = "ok" | "warn" | "fail";
export type Check = { name: string; status: CheckStatus; detail: string };

/**
 * Read-only health checks behind `teammem doctor`, /api/health and the Settings page. Creates
 * nothing: a missing data folder or database is reported with what to run.
 */
export async function diagnose(config: Config): Promise<Check[]> {
  return Promise.all([
    checkDataDir(config),
    checkDatabase(config),
    checkInstanceSecret(config),
    checkStore(config),
    checkStoreClone(config),
    checkModel(config),
    checkClaudeHome(config),
  ]);
}

async function checkDataDir(config: Config): Promise<Check> {
  const name = "data folder";
  try {
    if (!(await stat(config.dataDir)).isDirectory()) return { name, status: "fail", detail: `${config.dataDir} is not a folder; set TEAMMEM_DATA_DIR.` };
    await access(config.dataDir, constants.W_OK);
    return { name, status: "ok", detail: config.dataDir };
  } catch (error) {
    const isMissing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return {
      name,
      status: "fail",
      detail: isMissing ? `${config.dataDir} does not exist yet; run npm start.` : `${config.dataDir} is not writable; set TEAMMEM_DATA_DIR.`,
    };
  }
}

async function checkDatabase(config: Config): Promise<Check> {
  const name = "database";
  const where = config.sqliteFile ?? "PostgreSQL (DATABASE_URL)";
  try {
    // The header is not read: this runs inside the server (health, Settings), where opening and
    // closing the live database file would drop SQLite's locks on it (check-sqlite-file.ts).
    if (config.sqliteFile && (isBeforeFirstStart(config, config.sqliteFile) || !(await checkSqliteFile(config.sqliteFile, { readsHeader: false })).exists)) {
      return { name, status: "fail", detail: `${config.sqliteFile} does not exist yet; run npm start.` };
    }
    const db = createDb(config);
    try {
      const projects = await db.project.count();
      return { name, status: "ok", detail: `${config.databaseKind}: ${where} (${projects} project${projects === 1 ? "" : "s"})` };
    } finally {
      await db.$disconnect();
    }
  } catch (error) {
    return { name, status: "fail", detail: isAppError(error) ? error.message : `${where} cannot be queried; run npm start to apply migrations, or check DATABASE_URL.` };
  }
}

// Start-up refuses an unusable auth-secret file, and a secret other than the one the database's
// content was sealed with; a server without one could sign nobody in or open no sealed proposal.
async function checkInstanceSecret(config: Config): Promise<Check> {
  const name = "instance secret";
  const file = config.authSecret ? null : await readAuthSecretFile(config.dataDir);
  if (file?.state === "invalid") return { name, status: "fail", detail: unusableSecretFile(config, file.problem).message };
  const candidate: Candidate =
    file === null ? { secret: config.authSecret!, source: "env" } : file.state === "ok" ? { secret: file.secret, source: "file" } : { secret: randomUUID(), source: "generated" };
  const fit = await compareWithDatabaseIfAny(config, candidate.secret);
  if (fit === "different") return { name, status: "fail", detail: secretMismatch(config, candidate).message };
  if (candidate.source === "generated") return { name, status: "fail", detail: `${authSecretPath(config.dataDir)} does not exist yet; run npm start, or set TEAMMEM_AUTH_SECRET.` };
  return { name, status: "ok", detail: candidate.source === "env" ? "TEAMMEM_AUTH_SECRET is set" : authSecretPath(config.dataDir) };
}

// An unreachable or missing database is the database check's finding, not this one's.
async function compareWithDatabaseIfAny(config: Config, secret: string): Promise<"same" | "different" | "new" | "unknown"> {
  if (config.sqliteFile && !existsSync(config.sqliteFile)) return "unknown";
  const db = createDb({ ...config, authSecret: secret });
  try {
    return await compareSecretWithDatabase(db, secret).catch(() => "unknown" as const);
  } finally {
    await db.$disconnect();
  }
}

// Before the first start the data folder, and a database file in it with its folder, is not there yet.
function isBeforeFirstStart(config: Config, sqliteFile: string): boolean {
  return !existsSync(config.dataDir) && sqliteFile.startsWith(config.dataDir + path.sep);
}

async function checkStore(config: Config): Promise<Check> {
  const name = "team store";
  try {
    await assertRemoteReachable(config.storeRemote);
    await assertHistoryKeptOnThisDisk(config);
    return { name, status: "ok", detail: `${displayRemote(config.storeRemote)}${config.isEmbeddedStore ? " (embedded)" : ""}` };
  } catch (error) {
    return { name, status: "fail", detail: isAppError(error) ? error.message : "The team store cannot be read." };
  }
}

/**
 * Start-up's history check (docs/store.md, "When the store's history is missing"), for a store on
 * this disk: one whose main lost commits the database or the clone know is reachable, yet start-up
 * refuses it. Reads refs and one database row; a store elsewhere is left to start-up's fetch.
 */
async function assertHistoryKeptOnThisDisk(config: Config): Promise<void> {
  if (storeOnThisDisk(config) === null) return;
  const traces = { recordedCommit: await readRecordedCommitIfAny(config), cloneHead: await readCloneHead(config.storeCloneDir) };
  await assertStoreKeepsHistory(config, traces, { kind: "present", main: await readStoreMain(config.storeRemote) });
}

// An unreachable or missing database is the database check's finding, not this one's.
async function readRecordedCommitIfAny(config: Config): Promise<string | null> {
  if (config.sqliteFile && !existsSync(config.sqliteFile)) return null;
  const db = createDb(config);
  try {
    return await readRecordedCommit(db).catch(() => null);
  } finally {
    await db.$disconnect();
  }
}

// Start-up stops on a clone that is not the store's (lib/store/ensure-store.ts); say so first.
async function checkStoreClone(config: Config): Promise<Check> {
  const name = "store clone";
  const dir = config.storeCloneDir;
  const found = await stat(dir).catch(() => null);
  if (!found) return { name, status: "warn", detail: `${dir} does not exist yet; npm start clones the store into it.` };
  if (!found.isDirectory()) return { name, status: "fail", detail: `${dir} is not a folder but the server's clone of the store belongs there; teammem does not delete it: move it aside, and npm start clones the store again.` };
  const origin = isWorkingClone(dir) ? await originUrl(dir).catch(() => null) : null;
  if (origin === config.storeRemote) return { name, status: "ok", detail: dir };
  return {
    name,
    status: "fail",
    detail: `${dir} is ${origin ? `a clone of ${displayRemote(origin)}` : "not a git clone"}, not of ${displayRemote(config.storeRemote)}; use another TEAMMEM_DATA_DIR for this store, or set TEAMMEM_STORE_REMOTE back (teammem does not delete the clone).`,
  };
}

async function checkModel(config: Config): Promise<Check> {
  return config.anthropicApiKey
    ? { name: "model key", status: "ok", detail: `ANTHROPIC_API_KEY is set; recall uses ${config.recallModel}` }
    : { name: "model key", status: "warn", detail: "ANTHROPIC_API_KEY is not set; recall uses the local ranker" };
}

async function checkClaudeHome(config: Config): Promise<Check> {
  const name = "claude home";
  if (!config.claudeHome) return { name, status: "ok", detail: "not set: private memory is not shown (team server)" };
  try {
    await stat(config.claudeHome);
  } catch {
    return { name, status: "warn", detail: `${config.claudeHome} does not exist; set TEAMMEM_CLAUDE_HOME to a Claude Code config home such as ~/.claude` };
  }
  const projects = await listClaudeProjects(config.claudeHome);
  return { name, status: "ok", detail: `${config.claudeHome} (${projects.length} project${projects.length === 1 ? "" : "s"} with memory)` };
}
