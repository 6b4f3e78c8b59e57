import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childProcessEnv, type Config } from "../config";
import { AppError } from "../errors";
import { createDb } from "./client";
import { findPostgresReason } from "./database-unavailable";
import { redactForLog } from "../log";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Applies pending migrations with `prisma migrate deploy` (the same command operators run), for
 * the database kind in the config. Idempotent: with nothing pending it changes nothing.
 */
export async function applyMigrations(config: Config): Promise<void> {
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const databaseUrl = config.sqliteFile ? `file:${config.sqliteFile}` : config.databaseUrl;
  const { code, output } = await run(process.execPath, [prismaCli, "migrate", "deploy"], {
    cwd: repoRoot,
    env: childProcessEnv({ DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" }),
  });
  if (code === 0) {
    if (config.sqliteFile) await useWriteAheadLog(config);
    return;
  }
  const where =
    config.databaseKind === "sqlite"
      ? // Files that cannot be written were refused before (lib/setup/check-sqlite-file.ts); what is
        // left may still be a healthy database held by another program, so it is never "move it aside".
        `the SQLite file ${config.sqliteFile} (it may be locked by another program, damaged, or not a teammem database; teammem left it untouched: ` +
        `check it with sqlite3 "${config.sqliteFile}" "PRAGMA integrity_check", or set DATABASE_URL / TEAMMEM_DATA_DIR to another location)`
      : "the PostgreSQL database in DATABASE_URL (is the server running, and may this user create tables?)";
  const reason = config.databaseKind === "postgresql" ? findPostgresReason(output) : null;
  throw new AppError("DATABASE_UNAVAILABLE", reason ? `Applying database migrations failed: ${reason}.` : `Applying database migrations failed for ${where}.`, {
    details: { prismaOutput: redactForLog(output.slice(-2000)) },
  });
}

/**
 * SQLite's default rollback journal makes a reader wait for a writer and costs ~1.6 ms of syncing
 * per small write (every recall records one); the write-ahead log lets reads go on beside a write
 * at ~0.4 ms each, still synced on commit (synchronous stays FULL: nothing committed is lost).
 * The mode is stored in the file, so setting it once here covers every later connection.
 */
async function useWriteAheadLog(config: Config): Promise<void> {
  const db = createDb(config);
  try {
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  } finally {
    await db.$disconnect();
  }
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("error", (error) => resolve({ code: 1, output: String(error) }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
