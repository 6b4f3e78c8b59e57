import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "../../generated/prisma-pg/client";
import { readAuthSecretSync } from "../auth/read-auth-secret-file";
import type { Config } from "../config";
import { processWide } from "../process-wide";
import { flushRecallLog, forgetRecallLog } from "../recall/recall-log";
import { openDirectReads, type DirectReads } from "./direct-reads";
import { openSealedContent, sealSecretRevisions } from "./seal-secret-revisions";

export type Db = PrismaClient;

/**
 * Prisma gives a transaction 2 s to get a connection and 5 s to finish. Under load at 10,000
 * memories (8 approvals in flight on two instances, while the first staleness check of the project
 * wrote its rows) an approval found every pooled connection busy for longer and failed with a 500.
 * Waiting longer is right: the work is short, only the queue for a connection is long.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/**
 * The one Prisma client factory. A generated client is provider-specific, so both are generated
 * (`npm run db:generate`) from schemas with identical models, and DATABASE_URL picks one at run
 * time: switching databases needs no regenerate and no rebuild.
 */
export function createDb(config: Pick<Config, "databaseKind" | "databaseUrl" | "sqliteFile" | "authSecret" | "dataDir">): Db {
  const client =
    config.databaseKind === "postgresql"
      ? (new PgPrismaClient({ adapter: new PrismaPg({ connectionString: config.databaseUrl }), transactionOptions: TRANSACTION_OPTIONS }) as unknown as PrismaClient) // same models, same API
      : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${config.sqliteFile}` }), transactionOptions: TRANSACTION_OPTIONS });
  // The extended client has the same API; its type differs only by the extension's marker.
  const reads = openDirectReads(config);
  const key = readAuthSecretSync(config);
  const db = sealSecretRevisions(client, key).$extends({
    client: {
      async $disconnect() {
        // The recall log waits up to 100 ms for company (lib/recall/recall-log.ts): written first.
        await flushRecallLog(db);
        forgetRecallLog(db);
        await reads.close();
        await client.$disconnect();
      },
    },
  }) as unknown as Db;
  directReadsByDb.set(db, { ...reads, openRevisionContent: (content) => openSealedContent(content, key) });
  return db;
}

// Process-wide: the client is shared through globalThis, and each bundled copy of this module
// must find the reads of a client another copy made.
const directReadsByDb = processWide("directReadsByDb", () => new WeakMap<object, ClientReads>());

/** Direct reads, and the opening of a revision's content that Prisma's extension does on its reads. */
export type ClientReads = DirectReads & { openRevisionContent: (content: string | null) => Promise<string | null> };

/** The hot-path reads of this client's database, on the driver (lib/db/direct-reads.ts). */
export function directReadsOf(db: Db): ClientReads {
  const reads = directReadsByDb.get(db);
  if (!reads) throw new Error("directReadsOf: this client was not made by createDb");
  return reads;
}

/**
 * The client's direct reads, or null for a transaction's client: reads inside a transaction must
 * see its own writes, so they stay in Prisma.
 */
export function directReadsOutsideTransaction(db: object): ClientReads | null {
  return directReadsByDb.get(db) ?? null;
}

const cache = globalThis as unknown as { teammemDb?: { url: string; db: Db } };

/** One client per server process (next dev re-evaluates modules, so it is kept on globalThis). */
export function getDb(config: Config): Db {
  if (cache.teammemDb?.url !== config.databaseUrl) {
    cache.teammemDb = { url: config.databaseUrl, db: createDb(config) };
  }
  return cache.teammemDb.db;
}
