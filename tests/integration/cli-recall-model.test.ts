import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { startMessagesApiStub, type MessagesApiStub, type StubReply } from "../helpers/messages-api-stub";
import { useTempDirs } from "../helpers/temp-dir";

// `teammem recall` with a model key, as users run it: the compiled CLI against a local Messages
// API. Asynchronous on purpose: the stub answers from this process's event loop.
const run = promisify(execFile);
const tempDir = useTempDirs();
const stubs: MessagesApiStub[] = [];
beforeAll(ensureCompiledCli);
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function memoryDir(): Promise<string> {
  const dir = await tempDir("cli-recall-model-");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "feedback_real_db.md"), "---\nname: Real database in tests\ndescription: Integration tests use a real PostgreSQL database, never mocks\ntype: feedback\n---\nIntegration tests use a real database.\n");
  return dir;
}

async function recallWith(reply: StubReply): Promise<{ stdout: string; stub: MessagesApiStub }> {
  const stub = await startMessagesApiStub(reply);
  stubs.push(stub);
  const dir = await memoryDir();
  const env = { ...process.env, ANTHROPIC_API_KEY: "sk-test-not-a-real-key", ANTHROPIC_BASE_URL: stub.baseUrl };
  const { stdout } = await run(process.execPath, [TEAMMEM_BIN, "recall", dir, "--query", "why do integration tests use a real database", "--json"], { env });
  return { stdout, stub };
}

describe("teammem recall with a model endpoint that answers no Messages API message", () => {
  it.each([
    ["{}", "application/json"],
    ["<html>gateway error</html>", "text/html"],
  ])("an HTTP 200 with %s (%s) falls back to the local ranker and says so, exit 0", async (body, contentType) => {
    const { stdout, stub } = await recallWith({ kind: "raw", status: 200, body, contentType });
    const result = JSON.parse(stdout) as { selector: string; fallbackReason?: string; selected: { file: string }[] };
    expect(stub.requests).not.toHaveLength(0);
    expect(result.selector).toBe("local");
    expect(result.fallbackReason).toMatch(/^invalid-response: /);
    expect(result.selected.map((memory) => memory.file)).toEqual(["feedback_real_db.md"]);
  });
});
