import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { recordRecall } from "@/lib/recall/recall-log";

// Recalls arriving together share inserts; none may go missing, and each is in the database
// (for every instance) by the time its recall answers.
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

const entry = (projectId: string, index: number) => ({ projectId, userId: "u1", queryHash: `q${index}`, selector: "local", selected: JSON.stringify([`m${index}.md`]), latencyMs: 3, fellBack: false, at: new Date(1_800_000_000_000 + index) });

describe("the recall log", () => {
  it("keeps every one of 450 recalls arriving together, across batch boundaries, in order", async () => {
    await Promise.all(Array.from({ length: 450 }, (_, index) => recordRecall(db, entry("together", index))));
    const rows = await other.recallEvent.findMany({ where: { projectId: "together" }, orderBy: { at: "asc" } });
    expect(rows.map((row) => row.queryHash)).toEqual(Array.from({ length: 450 }, (_, index) => `q${index}`));
  });

  it("has a lone recall in the database when it resolves", async () => {
    await recordRecall(db, entry("alone", 1));
    expect(await other.recallEvent.count({ where: { projectId: "alone" } })).toBe(1);
  });
});
