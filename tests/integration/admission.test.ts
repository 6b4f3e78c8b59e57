import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setUpDemoWithToken } from "../helpers/demo-token";

/**
 * Admission control seen from a client: past the bound of recalls in flight (2 running + 2
 * waiting here) the server answers 503 SERVER_BUSY with Retry-After at once, other kinds of work
 * keep being served, and once the burst is over recall answers 200 again.
 */
const BASE = "http://127.0.0.1:3000";
const PASSWORD = "admission-password-123";
let worldDir = "";
let token = "";

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let recall: Handler;
let getProject: Handler;

const recallRequest = (signal?: AbortSignal) =>
  new Request(`${BASE}/api/projects/acme-checkout/recall`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query: "how do we test payments against PayFlow" }),
    signal,
  });
const params = Promise.resolve({ id: "acme-checkout" });

beforeAll(async () => {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-admission-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  process.env.TEAMMEM_MAX_IN_FLIGHT_RECALL = "2";
  process.env.TEAMMEM_MAX_QUEUED = "2";
  token = await setUpDemoWithToken("omar@acme.example", { name: "admission", projectIds: ["acme-checkout"] });
  recall = (await import("@/app/api/projects/[id]/recall/route")).POST;
  getProject = (await import("@/app/api/projects/[id]/route")).GET;
});

afterAll(async () => {
  const { getDatabase } = await import("@/app/_server/context");
  await getDatabase().$disconnect();
  await rm(worldDir, { recursive: true, force: true });
});

describe("admission control", () => {
  it("answers 503 with Retry-After beyond the bound, keeps serving other work, and recovers", async () => {
    const startedAt = Date.now();
    const burst = Array.from({ length: 12 }, () => recall(recallRequest(), { params }));
    const read = await getProject(new Request(`${BASE}/api/projects/acme-checkout`, { headers: { authorization: `Bearer ${token}` } }), { params });
    expect(read.status).toBe(200);

    const responses = await Promise.all(burst);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 503)).toHaveLength(8);

    const busy = responses.find((response) => response.status === 503)!;
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await busy.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("SERVER_BUSY");
    expect(body.error.message).toMatch(/busy; try again/);
    expect(Date.now() - startedAt).toBeLessThan(30_000);

    const after = await Promise.all([recall(recallRequest(), { params }), recall(recallRequest(), { params })]);
    expect(after.map((response) => response.status)).toEqual([200, 200]);
  });

  it("logs a client that went away as client_gone, never as an unexpected error", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const controller = new AbortController();
      const pending = recall(recallRequest(controller.signal), { params });
      controller.abort();
      await pending;
    } finally {
      spy.mockRestore();
    }
    const events = lines.map((line) => (JSON.parse(line) as { event: string; level: string }));
    expect(events).toContainEqual(expect.objectContaining({ event: "client_gone", level: "info" }));
    expect(events.filter((event) => event.level === "error")).toEqual([]);

    const afterwards = await recall(recallRequest(), { params });
    expect(afterwards.status).toBe(200);
  });
});
