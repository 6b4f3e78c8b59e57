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
    // The very first recall: nothing checked yet, so its age alone (8 months, project memories are
    // old after 30 days) is the doubt it carries.
    const first = await injectionOf();
    expect(first).toContain("teammem's staleness checks doubt this memory; verify before relying on it:");
    expect(first).toMatch(/- Last changed \d+ days ago; project memories are old after 30 days\./);
    // Then the check recall asked for lands, and its other reasons (a cutover date that passed) come too.
    let injection = first;
    for (let attempt = 0; attempt < 50 && !/has passed|meant 20/.test(injection); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      injection = await injectionOf();
    }
    expect(injection).toMatch(/has passed|meant 20/);
    expect(await db.staleRun.count({ where: { projectId: PROJECT } })).toBe(1);
  });
});
