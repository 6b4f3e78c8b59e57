import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { flushRecallLog, recordRecall } from "@/lib/recall/recall-log";
import { listRecallEvents } from "@/lib/recall/recall-project-memories";

// Recalls share inserts, written within a short window after they answer; none may go missing,
// and this instance's readers of the log see every recall it answered.
let root: string;
let config: Config;
let db: Db;
let other: Db;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-log-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: root, TEAMMEM_CLAUDE_HOME: "" }, root);
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
    for (let index = 0; index < 450; index++) recordRecall(db, entry("together", index));
    await flushRecallLog(db);
    const rows = await other.recallEvent.findMany({ where: { projectId: "together" }, orderBy: { at: "asc" } });
    expect(rows.map((row) => row.queryHash)).toEqual(Array.from({ length: 450 }, (_, index) => `q${index}`));
  });

  it("writes a lone recall on its own, without a reader asking, for every instance", async () => {
    recordRecall(db, entry("alone", 1));
    await vi.waitFor(async () => expect(await other.recallEvent.count({ where: { projectId: "alone" } })).toBe(1), { timeout: 2_000, interval: 10 });
  });

  it("shows this instance's lead a recall it answered a moment ago", async () => {
    recordRecall(db, { ...entry("just-now", 7), at: new Date() });
    expect((await listRecallEvents(db, "just-now")).map((event) => event.selected)).toEqual([["m7.md"]]);
  });

  it("writes what is waiting when the client closes", async () => {
    const closing = createDb(config);
    recordRecall(closing, entry("closing", 3));
    await closing.$disconnect();
    expect(await other.recallEvent.count({ where: { projectId: "closing" } })).toBe(1);
  });
});
