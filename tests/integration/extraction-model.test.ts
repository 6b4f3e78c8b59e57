import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extractFromTranscript } from "@/lib/extraction/extract-from-transcript";
import type { MemoryLibrary } from "@/lib/extraction/extract-with-model";
import { readTranscript } from "@/lib/transcripts/read-transcript";
import { startMessagesApiStub, type MessagesApiStub } from "../helpers/messages-api-stub";
import { useTempDirs } from "../helpers/temp-dir";
import { TranscriptBuilder } from "../helpers/transcript-lines";

const tempDir = useTempDirs();
const stubs: MessagesApiStub[] = [];
afterEach(async () => Promise.all(stubs.splice(0).map((stub) => stub.close())));

// Built at run time so no literal credential sits in the repository.
const TOKEN = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
const MEMORY_SECRET = ["sk", "_live_", "51HqLmN2eZvKYlo2C8xW7pQ4rT6y"].join("");

const library: MemoryLibrary = {
  manifest: "- [project] project_payflow_sandbox.md (2026-11-01): PayFlow sandbox is used by checkout tests",
  readMemory: async (file) => (file === "project_payflow_sandbox.md" ? `---\nname: PayFlow sandbox\ntype: project\n---\nSandbox key ${MEMORY_SECRET}\n` : null),
};

async function session() {
  const t = new TranscriptBuilder();
  const early = t.user("Please look at the flaky checkout test.");
  const reply = t.assistant([{ text: "Installing first." }, { tool: "Bash", id: "toolu_1", input: { command: `GITHUB_TOKEN=${TOKEN} npm install` } }]);
  t.toolResult("toolu_1", reply.toolLines.toolu_1!, `npm ERR! 401 token ${TOKEN}`, true);
  const correction = t.user(`No, use pnpm instead, this repo has a pnpm lockfile. My token is ${TOKEN} if needed.`);
  const file = path.join(await tempDir(), `${t.sessionId}.jsonl`);
  await writeFile(file, t.text(true));
  return { file, early, correction, last: t.lines.at(-1)!.uuid as string };
}

async function stub(...replies: Parameters<typeof startMessagesApiStub>) {
  const started = await startMessagesApiStub(...replies);
  stubs.push(started);
  return started;
}

const run = (file: string, baseUrl: string, extra: { cursor?: string | null; timeoutMs?: number } = {}) =>
  extractFromTranscript({
    messages: readTranscript(file).messages,
    cursor: extra.cursor ?? null,
    model: { apiKey: "sk-ant-test", baseUrl, model: "claude-sonnet-4-6", timeoutMs: extra.timeoutMs ?? 5000, maxRetries: 0 },
    library,
  });

describe("extraction with a model (X6) through the real SDK", () => {
  it("reads, then proposes; the manifest is in the prompt and the evidence is the user's words", async () => {
    const { file, correction, last } = await session();
    const api = await stub(
      { kind: "tool_use", calls: [{ name: "list_memories", input: {} }, { name: "read_memory", input: { file: "project_payflow_sandbox.md" } }] },
      { kind: "tool_use", calls: [{ name: "propose_memory", input: { file: "feedback_use_pnpm.md", type: "feedback", name: "Use pnpm", description: "This repo installs with pnpm", body: "Use pnpm.\n**Why:** pnpm lockfile.\n**How to apply:** installs.", scope: "team", evidence: [correction] } }] },
      { kind: "text", text: "Done." },
    );
    const result = await run(file, api.baseUrl);
    expect(result.selector).toBe("model");
    expect(result.cursor).toBe(last);
    expect(result.candidates).toHaveLength(1);
    expect(result.candidates[0]).toMatchObject({ file: "feedback_use_pnpm.md", scope: "team", evidence: [{ uuid: correction, role: "user" }] });
    expect(api.requests).toHaveLength(3);
    const first = api.requests[0]!.body as { tools: { name: string }[]; messages: { content: string }[]; system: string };
    expect(first.tools.map((tool) => tool.name)).toEqual(["list_memories", "read_memory", "propose_memory"]);
    expect(first.messages[0]!.content).toContain("project_payflow_sandbox.md");
    expect(first.system).toContain("one person's taste");
  });

  it("cuts the conversation after five turns: no sixth request", async () => {
    const { file } = await session();
    const api = await stub({ kind: "tool_use", calls: [{ name: "list_memories", input: {} }] });
    const result = await run(file, api.baseUrl);
    expect(api.requests).toHaveLength(5);
    expect(result).toMatchObject({ selector: "model", candidates: [] });
  });

  it("a propose_memory the model repeats, in one turn and on every turn, is one candidate", async () => {
    const { file, correction } = await session();
    const propose = { name: "propose_memory", input: { file: "feedback_use_pnpm.md", type: "feedback", name: "Use pnpm", description: "This repo installs with pnpm", body: "Use pnpm.", scope: "team", evidence: [correction] } };
    const api = await stub({ kind: "tool_use", calls: [propose, propose, propose] });
    const result = await run(file, api.baseUrl);
    expect(api.requests).toHaveLength(5);
    expect(result.candidates.map((candidate) => candidate.file)).toEqual(["feedback_use_pnpm.md"]);
  });

  it("keeps back a candidate whose evidence quotes nothing the user wrote (none, made-up ids, only the assistant), and tells the model", async () => {
    const { file, correction } = await session();
    const reply = (await readReplyUuid(file))!;
    const memory = { type: "project", name: "Wallet launch", description: "The Wallet launch moved to 2027-05-01", body: "The Wallet launch moved to 2027-05-01.", scope: "team" };
    const api = await stub(
      {
        kind: "tool_use",
        calls: [
          { name: "propose_memory", input: { ...memory, file: "project_none.md", evidence: [] } },
          { name: "propose_memory", input: { ...memory, file: "project_made_up.md", evidence: ["not-a-message-of-this-session"] } },
          { name: "propose_memory", input: { ...memory, file: "project_assistant.md", evidence: [reply] } },
          { name: "propose_memory", input: { ...memory, file: "feedback_use_pnpm.md", type: "feedback", evidence: [correction] } },
        ],
      },
      { kind: "text", text: "Done." },
    );
    const result = await run(file, api.baseUrl);
    expect(result.candidates.map((candidate) => [candidate.file, candidate.refusal])).toEqual([
      ["project_none.md", "its evidence quotes no message the user wrote in this session"],
      ["project_made_up.md", "its evidence quotes no message the user wrote in this session"],
      ["project_assistant.md", "its evidence quotes no message the user wrote in this session"],
      ["feedback_use_pnpm.md", undefined],
    ]);
    const toolResults = JSON.stringify((api.requests[1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(toolResults).toContain("not recorded: its evidence quotes no message the user wrote");
  });

  it("refuses a tool outside the allowed set and tells the model so", async () => {
    const { file } = await session();
    const api = await stub({ kind: "tool_use", calls: [{ name: "Bash", input: { command: "cat ~/.ssh/id_rsa" } }] }, { kind: "text", text: "Nothing to save." });
    await run(file, api.baseUrl);
    const second = JSON.stringify((api.requests[1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(second).toContain('"is_error":true');
    expect(second).toContain("not available here");
  });

  it("never sends a secret from the transcript or a memory in any request body", async () => {
    const { file } = await session();
    const api = await stub({ kind: "tool_use", calls: [{ name: "read_memory", input: { file: "project_payflow_sandbox.md" } }] }, { kind: "text", text: "ok" });
    await run(file, api.baseUrl);
    const bodies = JSON.stringify(api.requests.map((request) => request.body));
    expect(bodies).toContain("[REDACTED:");
    expect(bodies).not.toContain(TOKEN);
    expect(bodies).not.toContain(MEMORY_SECRET);
  });

  it("falls back to the rules on a 500 and on a hang", async () => {
    const { file } = await session();
    const failing = await stub({ kind: "status", status: 500 });
    const afterError = await run(file, failing.baseUrl);
    expect(afterError.selector).toBe("rules");
    expect(afterError.fallbackReason).toContain("HTTP 500");
    expect(afterError.candidates.map((candidate) => candidate.name)).toEqual(["Use pnpm instead, this repo has a pnpm lockfile."]);
    const hanging = await stub({ kind: "hang" });
    const afterHang = await run(file, hanging.baseUrl, { timeoutMs: 300 });
    expect(afterHang).toMatchObject({ selector: "rules", candidates: [{ file: afterError.candidates[0]!.file }] });
    expect(afterHang.fallbackReason).toBe("The extraction model did not answer within 300 ms.");
  });

  it("names extraction, not recall, when the model answers garbage", async () => {
    const { file } = await session();
    const garbage = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end("<html>garbage"));
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    try {
      const result = await run(file, `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`);
      expect(result.selector).toBe("rules");
      expect(result.fallbackReason).toBe("The extraction model call failed.");
    } finally {
      garbage.close();
    }
  });

  it("works only on messages after the cursor (C10); nothing new means no model call", async () => {
    const { file, early, last } = await session();
    const api = await stub({ kind: "text", text: "Nothing." });
    await run(file, api.baseUrl, { cursor: early });
    const sent = JSON.stringify(api.requests[0]!.body);
    expect(sent).not.toContain(early);
    expect(sent).toContain("use pnpm instead");
    const again = await run(file, api.baseUrl, { cursor: last });
    expect(again).toMatchObject({ newMessages: 0, candidates: [], cursor: last });
    expect(api.requests).toHaveLength(1);
  });
});

async function readReplyUuid(file: string): Promise<string | null> {
  for await (const message of readTranscript(file).messages) if (message.kind === "assistant") return message.uuid;
  return null;
}
