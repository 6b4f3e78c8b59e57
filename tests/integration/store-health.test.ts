import { execFileSync } from "node:child_process";
import { mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** GET /api/health while the team store is reachable, and after it went away. */
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Health = { ok: boolean; checks: { name: string; status: string }[]; store: { reachable: boolean; unreachableSince: string | null; lastFetchedAt: string | null } };

let root = "";
let remote = "";
let health: Handler;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-health-"));
  remote = path.join(root, "team-store.git");
  execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", remote]);
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_STORE_REMOTE = remote;
  process.env.TEAMMEM_DEMO = "on";
  process.env.TEAMMEM_CLAUDE_HOME = "";
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  health = (await import("@/app/api/health/route")).GET as unknown as Handler;
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function getHealth(): Promise<{ status: number; body: Health }> {
  const response = await health(new Request("http://127.0.0.1:3000/api/health"), { params: Promise.resolve({}) });
  return { status: response.status, body: (await response.json()) as Health };
}

describe("GET /api/health and the team store", () => {
  it("says the store is reachable, then since when it is not, and keeps answering 200 because reads still serve", async () => {
    const before = await getHealth();
    expect(before.status).toBe(200);
    expect(before.body.store).toMatchObject({ reachable: true, unreachableSince: null });

    await rename(remote, `${remote}.away`);
    try {
      const { refreshStore } = await import("@/lib/store/read-store");
      const { loadConfig } = await import("@/lib/config");
      await refreshStore(loadConfig(), { force: true });
      const during = await getHealth();
      expect(during.status).toBe(200);
      expect(during.body.ok).toBe(false);
      expect(during.body.checks).toContainEqual({ name: "team store", status: "fail" });
      expect(during.body.store.reachable).toBe(false);
      expect(Date.parse(during.body.store.unreachableSince!)).toBeLessThanOrEqual(Date.now());
      expect(JSON.stringify(during.body)).not.toContain(root); // no paths for strangers
    } finally {
      await rename(`${remote}.away`, remote);
    }
  });
});
