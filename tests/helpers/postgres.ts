import { randomUUID } from "node:crypto";
import { createDb } from "@/lib/db/client";

/**
 * A PostgreSQL server for integration tests: CI starts one and sets TEAMMEM_TEST_POSTGRES_URL
 * (see .ci/run). Each test gets a database of its own, dropped afterwards.
 */
export const TEST_POSTGRES_URL = process.env.TEAMMEM_TEST_POSTGRES_URL ?? null;

export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES_URL) throw new Error("TEAMMEM_TEST_POSTGRES_URL is not set");
  const name = `teammem_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = createDb({ databaseKind: "postgresql", databaseUrl: TEST_POSTGRES_URL, sqliteFile: null, authSecret: null, dataDir: "/nonexistent" });
  await admin.$executeRawUnsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.$disconnect();
    },
  };
}
