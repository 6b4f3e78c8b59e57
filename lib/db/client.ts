import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";
import type { Config } from "../config";
import { AppError } from "../errors";

export type Db = PrismaClient;

/**
 * The one Prisma client factory. The generated client is provider-specific: `prisma generate`
 * must run with the same DATABASE_URL kind (scripts/start.ts takes care of that).
 */
export function createDb(config: Pick<Config, "databaseKind" | "databaseUrl" | "sqliteFile">): Db {
  const adapter =
    config.databaseKind === "postgresql"
      ? new PrismaPg({ connectionString: config.databaseUrl })
      : new PrismaBetterSQLite3({ url: `file:${config.sqliteFile}` });
  return new PrismaClient({ adapter });
}

const cache = globalThis as unknown as { teammemDb?: { url: string; db: Db } };

/** One client per server process (next dev re-evaluates modules, so it is kept on globalThis). */
export function getDb(config: Config): Db {
  if (cache.teammemDb?.url !== config.databaseUrl) {
    cache.teammemDb = { url: config.databaseUrl, db: createDb(config) };
  }
  return cache.teammemDb.db;
}

/** Turns a driver or Prisma failure into an AppError that names what to change, never raw text. */
export function databaseUnavailable(config: Pick<Config, "databaseKind">, cause: unknown): AppError {
  const where =
    config.databaseKind === "sqlite"
      ? "the SQLite file (set DATABASE_URL or TEAMMEM_DATA_DIR)"
      : "the PostgreSQL server in DATABASE_URL";
  return new AppError(
    "DATABASE_UNAVAILABLE",
    `The database could not be used: check ${where} and run \`npm start\` (or \`npx teammem doctor\`).`,
    { cause },
  );
}
