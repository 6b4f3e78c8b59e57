import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpDemoWithToken } from "../helpers/demo-token";

/**
 * A recall injects a stale memory with the staleness checks' doubts. Those checks must not wait
 * for someone to open the dashboard: recall asks for them itself, behind its answer.
 */
const PROJECT = "acme-checkout";
let worldDir = "";

beforeAll(async () => {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-doubts-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "recall-doubts-password-1";
  await setUpDemoWithToken("omar@acme.example", { name: "doubts", projectIds: [PROJECT] });
}, 120_000);
afterAll(async () => {
  const { getDatabase } = await import("@/app/_server/context");
  await getDatabase().$disconnect();
  await rm(worldDir, { recursive: true, force: true });
});

describe("a stale memory recalled before anyone opened a page", () => {
  it("reaches the agent with the checks' doubts within a few recalls, no freshness page or API read", async () => {
    const { getConfig, getDatabase } = await import("@/app/_server/context");
    const { recallProjectMemories } = await import("@/lib/recall/recall-project-memories");
    const db = getDatabase();
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    const caller = { userId: omar.id, email: omar.email, name: omar.name, isAdmin: false, via: "token" as const, tokenProjectIds: [PROJECT] };
    expect(await db.staleRun.count({ where: { projectId: PROJECT } })).toBe(0);
    const injectionOf = async () => {
      const result = await recallProjectMemories(getConfig(), db, caller, { projectId: PROJECT, query: "when does the PostgreSQL 16 upgrade cutover happen" });
      return result.selected.find((memory) => memory.file === "project_postgres_16_upgrade.md")?.injection ?? "";
    };
    expect(await injectionOf()).toContain("PostgreSQL 16");
    let injection = "";
    for (let attempt = 0; attempt < 50 && !injection.includes("staleness checks doubt"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      injection = await injectionOf();
    }
    expect(injection).toContain("teammem's staleness checks doubt this memory; verify before relying on it:");
    expect(await db.staleRun.count({ where: { projectId: PROJECT } })).toBe(1);
  });
});
