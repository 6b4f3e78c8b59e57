import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { flushRecallLog, recordRecall } from "@/lib/recall/recall-log";

// The recall log is written in batches; no recall may go missing, and a reader sees every one.
let root: string;
let db: Db;
let other: Db;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-log-"));
  const config = loadConfig({ TEAMMEM_DATA_DIR: root, TEAMMEM_CLAUDE_HOME: "" }, root);
  await applyMigrations(config);
  [db, other] = [createDb(config), createDb(config)];
}, 60_000);

afterAll(async () => {
  await Promise.all([db?.$disconnect(), other?.$disconnect()]);
  if (root) await rm(root, { recursive: true, force: true });
});

const entry = (index: number) => ({ projectId: "log-test", userId: "u1", queryHash: `q${index}`, selector: "local", selected: JSON.stringify([`m${index}.md`]), latencyMs: 3, fellBack: false, at: new Date(1_800_000_000_000 + index) });

describe("the recall log", () => {
  it("keeps every one of 450 recalls across batch boundaries, visible to this process once flushed", async () => {
    for (let index = 0; index < 450; index += 1) recordRecall(db, entry(index));
    await flushRecallLog(db);
    const rows = await db.recallEvent.findMany({ where: { projectId: "log-test" }, orderBy: { at: "asc" } });
    expect(rows.map((row) => row.queryHash)).toEqual(Array.from({ length: 450 }, (_, index) => `q${index}`));
  });

  it("reaches the database on its own within a moment, for other instances to read", async () => {
    recordRecall(db, { ...entry(1000), projectId: "log-test-2" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await other.recallEvent.count({ where: { projectId: "log-test-2" } })).toBe(1);
  });
});
