import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createModelBreaker, type ModelBreaker } from "@/lib/recall/create-model-breaker";
import { recallMemories, type RecallResult } from "@/lib/recall/recall-memories";
import { startMessagesApiStub, type MessagesApiStub, type StubReply } from "../../helpers/messages-api-stub";
import { useTempDirs } from "../../helpers/temp-dir";

/**
 * R6 with the real SDK over real HTTP: a hung or failing model is skipped for a cool-down (the
 * local ranker answers at once and says why), then one recall tries it again; and no more recalls
 * than allowed wait on it at once. The clock is the test's, so the cool-down takes no time.
 */
const tempDir = useTempDirs();
const stubs: MessagesApiStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

const NOW = new Date("2026-11-28T12:00:00.000Z");
const QUERY = "can we deploy the latency fix to production today";
const COOL_DOWN_MS = 30_000;

async function memoryDir(): Promise<string> {
  const dir = await tempDir("recall-breaker-");
  const memories = [
    { file: "team/project_deploy_freeze.md", description: "Production deploy freeze from 2026-11-26 to 2026-12-01" },
    { file: "team/reference_grafana.md", description: "Grafana dashboard for billing API latency" },
  ];
  for (const memory of memories) {
    const file = path.join(dir, memory.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `---\ndescription: ${memory.description}\ntype: project\n---\nBody\n`);
    await utimes(file, NOW, NOW);
  }
  return dir;
}

async function stubWith(...replies: StubReply[]): Promise<MessagesApiStub> {
  const stub = await startMessagesApiStub(...replies);
  stubs.push(stub);
  return stub;
}

const answer: StubReply = { kind: "text", text: JSON.stringify({ selected_memories: ["team/project_deploy_freeze.md"] }) };

type World = { recall: (timeoutMs?: number) => Promise<RecallResult>; advance: (ms: number) => void; stub: MessagesApiStub; breaker: ModelBreaker };

/** `maxRetries` left out of the options: 0; given as undefined: recall's own default. */
async function world(options: { replies: StubReply[]; maxWaiting?: number; maxRetries?: number }): Promise<World> {
  const maxRetries = "maxRetries" in options ? options.maxRetries : 0;
  const stub = await stubWith(...options.replies);
  const dir = await memoryDir();
  let clock = 1_000_000;
  const breaker = createModelBreaker({ coolDownMs: COOL_DOWN_MS, maxWaiting: options.maxWaiting ?? 3, now: () => clock });
  const recall = (timeoutMs?: number) =>
    recallMemories({ memoryDir: dir, query: QUERY, now: NOW, modelBreaker: breaker, model: { apiKey: "sk-test-not-a-real-key", baseUrl: stub.baseUrl, model: "claude-sonnet-4-6", timeoutMs, maxRetries } });
  return { recall, advance: (ms) => (clock += ms), stub, breaker };
}

describe("the recall model breaker (R6)", () => {
  it("after the model hung past a 2 s deadline, recalls skip it and say so; after the cool-down one recall tries it again and its answer resumes model recall", async () => {
    const { recall, advance, stub } = await world({ replies: [{ kind: "hang" }, answer] });

    const hung = await recall(2_000);
    expect(hung.selector).toBe("local");
    expect(hung.fallbackReason).toMatch(/^timeout: /);

    const paused = await recall();
    expect(paused.selector).toBe("local");
    expect(paused.fallbackReason).toMatch(/^model-paused: The recall model failed \d+ s ago \(timeout\)\. The local ranker answers until it is tried again in 30 s\.$/);
    expect(paused.selected.map((memory) => memory.file)).toContain("team/project_deploy_freeze.md");
    expect(stub.requests).toHaveLength(1); // the paused recall never reached the model

    advance(COOL_DOWN_MS + 1);
    const retried = await recall();
    expect(retried.selector).toBe("model");
    expect(retried.fallbackReason).toBeUndefined();
    const next = await recall();
    expect(next.selector).toBe("model");
    expect(stub.requests).toHaveLength(3);
  });

  it("a model answering HTTP 500 is paused as well, and a failed retry pauses it again", async () => {
    const { recall, advance, stub } = await world({ replies: [{ kind: "status", status: 500 }] });
    expect((await recall()).fallbackReason).toMatch(/^http-error: /);
    expect((await recall()).fallbackReason).toMatch(/^model-paused: .*\(http-error\)/);
    advance(COOL_DOWN_MS + 1);
    expect((await recall()).fallbackReason).toMatch(/^http-error: /);
    expect((await recall()).fallbackReason).toMatch(/^model-paused: /);
    expect(stub.requests).toHaveLength(2);
  });

  it.each([
    ["{}", "application/json"],
    ["null", "application/json"],
    ['{"content":null}', "application/json"],
    ['{"content":"team/project_deploy_freeze.md"}', "application/json"],
    ["<html>gateway error</html>", "text/html"],
  ])("an endpoint answering HTTP 200 with %s (%s), no Messages API message, falls back and pauses the model", async (body, contentType) => {
    const { recall, stub } = await world({ replies: [{ kind: "raw", status: 200, body, contentType }] });
    const first = await recall();
    expect(first.selector).toBe("local");
    expect(first.fallbackReason).toMatch(/^invalid-response: .*The local ranker answered instead\.$/);
    expect(first.selected.map((memory) => memory.file)).toContain("team/project_deploy_freeze.md");
    expect((await recall()).fallbackReason).toMatch(/^model-paused: .*\(invalid-response\)/);
    expect(stub.requests).toHaveLength(1);
  });

  it("a 429 with Retry-After (as the Messages API sends it) is reported as a rate limit at once, not waited out, and pauses the model", async () => {
    const rateLimited: StubReply = { kind: "raw", status: 429, body: '{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}', headers: { "retry-after": "30" } };
    const { recall, stub } = await world({ replies: [rateLimited], maxRetries: undefined });
    const first = await recall(800); // the prompt hook's kind of deadline
    expect(first.fallbackReason).toMatch(/^rate-limited: The model API is rate limiting requests \(HTTP 429\)\./);
    expect(first.latencyMs).toBeLessThan(700);
    expect((await recall(800)).fallbackReason).toMatch(/^model-paused: .*\(rate-limited\)/);
    expect(stub.requests).toHaveLength(1);
  });

  it("a caller's own short deadline running out (the prompt hook's) does not pause the model for everyone", async () => {
    const { recall, stub } = await world({ replies: [{ kind: "hang" }, answer] });
    expect((await recall(100)).fallbackReason).toMatch(/^timeout: /);
    const next = await recall();
    expect(next.selector).toBe("model");
    expect(stub.requests).toHaveLength(2);
  });

  it("while the allowed number of recalls wait on a hung model, the next one is answered by the local ranker without asking it", async () => {
    const { recall, stub } = await world({ replies: [{ kind: "hang" }], maxWaiting: 2 });
    const settled: string[] = [];
    const waiting = [recall(3_000), recall(3_000)].map((pending) => pending.then((result) => (settled.push("model-wait"), result)));
    await waitFor(() => stub.requests.length === 2);

    const busy = await recall(3_000);
    settled.push("busy");
    expect(busy.selector).toBe("local");
    expect(busy.fallbackReason).toBe("model-busy: 2 recalls are already waiting on the model. The local ranker answered this one.");
    expect(busy.selected.map((memory) => memory.file)).toContain("team/project_deploy_freeze.md");
    expect(settled[0]).toBe("busy"); // answered while the other two still waited on the model

    const ended = await Promise.all(waiting);
    expect(ended.map((result) => result.fallbackReason?.split(":")[0])).toEqual(["timeout", "timeout"]);
    expect(stub.requests).toHaveLength(2);
  });

  it("after the cool-down only one recall tries a model that still hangs; the others keep ranking locally", async () => {
    const { recall, advance, stub } = await world({ replies: [{ kind: "hang" }] });
    expect((await recall(2_000)).fallbackReason).toMatch(/^timeout: /);
    advance(COOL_DOWN_MS + 1);

    const trial = recall(2_000);
    await waitFor(() => stub.requests.length === 2);
    const during = await recall();
    expect(during.selector).toBe("local");
    expect(during.fallbackReason).toMatch(/^model-paused: .*another recall is trying it again now\.$/);
    expect((await trial).fallbackReason).toMatch(/^timeout: /);
    expect((await recall()).fallbackReason).toMatch(/^model-paused: /);
    expect(stub.requests).toHaveLength(2);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
