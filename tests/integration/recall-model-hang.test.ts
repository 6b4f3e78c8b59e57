import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpDemoWithToken } from "../helpers/demo-token";
import { startMessagesApiStub, type MessagesApiStub } from "../helpers/messages-api-stub";

/**
 * R6 through the recall route and its admission gate (4 recalls in flight, the default), with
 * the real SDK talking to a model API that never answers. Recalls without a deadline of their
 * own (the README's curl, the playground) used to hold every recall slot for the model's 10 s,
 * so the prompt hook's recall, which the local ranker answers at once, waited 5 s and got 503.
 */
const BASE = "http://127.0.0.1:3000";
let worldDir = "";
let token = "";
let stub: MessagesApiStub;

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let recallRoute: Handler;
type Answer = { selector: string; fallbackReason?: string; selected: { file: string }[] };

const params = Promise.resolve({ id: "acme-checkout" });
const recall = (body: Record<string, unknown>) =>
  recallRoute(
    new Request(`${BASE}/api/projects/acme-checkout/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ includeManifest: false, ...body }),
    }),
    { params },
  );

beforeAll(async () => {
  stub = await startMessagesApiStub({ kind: "hang" });
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-hang-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "recall-hang-password-1";
  process.env.ANTHROPIC_API_KEY = "sk-test-not-a-real-key";
  process.env.ANTHROPIC_BASE_URL = stub.baseUrl;
  delete process.env.TEAMMEM_MAX_IN_FLIGHT_RECALL; // the default: 4
  token = await setUpDemoWithToken("omar@acme.example", { name: "recall-hang", projectIds: ["acme-checkout"] });
  recallRoute = (await import("@/app/api/projects/[id]/recall/route")).POST;
});

afterAll(async () => {
  const { getDatabase } = await import("@/app/_server/context");
  await getDatabase().$disconnect();
  await stub.close();
  await rm(worldDir, { recursive: true, force: true });
});

describe("recall while the model API hangs", () => {
  it("the prompt hook's recall is answered by the local ranker while recalls without a deadline wait on the model, and later recalls skip the model", async () => {
    const settled: string[] = [];
    const withoutDeadline = [1, 2, 3, 4].map((run) =>
      recall({ query: `how do we test payments against PayFlow webhooks ${run}` }).then(async (response) => {
        settled.push("default");
        return { status: response.status, body: (await response.json()) as Answer };
      }),
    );
    await waitFor(() => stub.requests.length >= 3);

    const hook = await recall({ query: "how do we test payments against PayFlow webhooks now", modelTimeoutMs: 100 });
    settled.push("hook");
    expect(hook.status).toBe(200);
    const hookAnswer = (await hook.json()) as Answer;
    expect(hookAnswer.selector).toBe("local");
    expect(hookAnswer.fallbackReason).toMatch(/^model-busy: 3 recalls are already waiting on the model\./);
    expect(hookAnswer.selected.length).toBeGreaterThan(0);

    const ended = await Promise.all(withoutDeadline);
    expect(ended.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    expect(ended.map((result) => result.body.fallbackReason?.split(":")[0]).sort()).toEqual(["model-busy", "timeout", "timeout", "timeout"]);
    expect(ended.find((result) => result.body.fallbackReason?.startsWith("timeout"))?.body.fallbackReason).toContain("within 5000 ms");
    // The hook was answered while the three recalls still waited on the model.
    expect(settled.indexOf("hook")).toBeLessThan(settled.lastIndexOf("default"));
    expect(settled.slice(settled.indexOf("hook") + 1).filter((entry) => entry === "default").length).toBeGreaterThanOrEqual(3);

    // The model timed out at the server's own deadline: it is skipped for a while, no one waits on it.
    const asked = stub.requests.length;
    const after = await Promise.all([1, 2, 3, 4, 5, 6].map((run) => recall({ query: `how do we test payments against PayFlow ${run}` })));
    expect(after.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const afterAnswers = (await Promise.all(after.map((response) => response.json()))) as Answer[];
    for (const answer of afterAnswers) expect(answer.fallbackReason).toMatch(/^model-paused: The recall model failed \d+ s ago \(timeout\)\./);
    expect(stub.requests.length).toBe(asked);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1_000 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
