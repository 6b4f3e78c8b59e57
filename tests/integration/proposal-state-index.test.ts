import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

// Every approval asks for the approvals still in flight (reconcile-commits.ts). On a table of
// every proposal a project ever had, that question must be answered from an index, not a scan.
const ORPHAN_QUERY = `SELECT "id", "updatedAt" FROM "Proposal" WHERE "state" = 'approved'`;
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function migratedSqlite(): Promise<Db> {
  const root = await mkdtemp(path.join(os.tmpdir(), "teammem-state-index-"));
  const config = loadConfig({ TEAMMEM_DATA_DIR: root, TEAMMEM_CLAUDE_HOME: "" }, root);
  await applyMigrations(config);
  const db = createDb(config);
  cleanups.push(async () => {
    await db.$disconnect();
    await rm(root, { recursive: true, force: true });
  });
  return db;
}

describe("the in-flight approvals query", () => {
  it("SQLite answers it from the state index", async () => {
    const db = await migratedSqlite();
    const plan = await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${ORPHAN_QUERY}`);
    expect(plan.map((step) => step.detail).join("\n")).toMatch(/USING (COVERING )?INDEX Proposal_state_updatedAt_idx/);
  }, 60_000);

  it.runIf(TEST_POSTGRES_URL)("PostgreSQL has the same index", async () => {
    const database = await createTestDatabase();
    const root = await mkdtemp(path.join(os.tmpdir(), "teammem-state-index-pg-"));
    const config = loadConfig({ TEAMMEM_DATA_DIR: root, DATABASE_URL: database.url, TEAMMEM_CLAUDE_HOME: "" }, root);
    await applyMigrations(config);
    const db = createDb(config);
    cleanups.push(async () => {
      await db.$disconnect();
      await database.drop();
      await rm(root, { recursive: true, force: true });
    });
    const indexes = await db.$queryRawUnsafe<{ indexdef: string }[]>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'Proposal'`);
    expect(indexes.map((index) => index.indexdef)).toContainEqual(expect.stringMatching(/Proposal_state_updatedAt_idx.*\("?state"?, "updatedAt"\)/));
  }, 60_000);
});
