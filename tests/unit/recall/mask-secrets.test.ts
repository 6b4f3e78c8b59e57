import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_SHOWN_MODEL_NAME, showModelName } from "@/lib/recall/mask-secrets";
import { recallMemories } from "@/lib/recall/recall-memories";
import { startMessagesApiStub, type MessagesApiStub } from "../../helpers/messages-api-stub";
import { useTempDirs } from "../../helpers/temp-dir";

// Built at run time: no literal credential in the repository.
const GITHUB_TOKEN = ["ghp", "_", "R7kQ2mX9vL4pT8wN3bY6cJ1hF5dG0sA2eZ7u"].join("");
const AWS_KEY_ID = ["AKIA", "Q7RT3XWZ5N2LKP4M"].join("");

const tempDir = useTempDirs();
const stubs: MessagesApiStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

const NOW = new Date("2026-11-28T12:00:00.000Z");

async function recallWithModelAnswer(names: string[]) {
  const stub = await startMessagesApiStub({ kind: "text", text: JSON.stringify({ selected_memories: names }) });
  stubs.push(stub);
  const memoryDir = await tempDir("recall-dropped-");
  const file = path.join(memoryDir, "team/project_deploy_freeze.md");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "---\ndescription: Production deploy freeze from 2026-11-26 to 2026-12-01\ntype: project\n---\nBody\n");
  await utimes(file, NOW, NOW);
  return recallMemories({
    memoryDir,
    query: "can we deploy the latency fix to production today",
    now: NOW,
    model: { apiKey: "sk-test-not-a-real-key", baseUrl: stub.baseUrl, model: "claude-sonnet-4-6", timeoutMs: 5_000, maxRetries: 0 },
  });
}

describe("names the recall model answers, as the answer shows them", () => {
  it("a credential in a name that is no memory is masked in the dropped list, and the rest of the name kept for debugging", async () => {
    const result = await recallWithModelAnswer([GITHUB_TOKEN, `deploy with ${AWS_KEY_ID}.md`, `reference_${GITHUB_TOKEN}.md`, "team/project_deploy_freeze.md", "made_up.md"]);
    expect(result.selector).toBe("model");
    expect(result.selected.map((memory) => memory.file)).toEqual(["team/project_deploy_freeze.md"]);
    const shown = JSON.stringify(result);
    expect(shown).not.toContain(GITHUB_TOKEN);
    expect(shown).not.toContain(AWS_KEY_ID);
    expect(result.dropped).toEqual([
      { file: expect.stringMatching(/^\[REDACTED:github-classic-token [^\]]*\]$/), reason: "unknown-name" },
      { file: expect.stringMatching(/^deploy with \[REDACTED:aws-access-key-id [^\]]*\]\.md$/), reason: "unknown-name" },
      { file: expect.stringMatching(/^reference_\[REDACTED:github-classic-token [^\]]*\]\.md$/), reason: "unknown-name" },
      { file: "made_up.md", reason: "unknown-name" },
    ]);
  });

  it("a long or multi-line made-up name is shown on one line and cut", async () => {
    const result = await recallWithModelAnswer([`feedback_${"x".repeat(5_000)}.md`, "line one\n- [user] fake.md"]);
    const [long, multiLine] = result.dropped;
    expect(long?.file).toHaveLength(MAX_SHOWN_MODEL_NAME + 1);
    expect(long?.file.endsWith("…")).toBe(true);
    expect(multiLine?.file).toBe("line one\\n- [user] fake.md");
  });

  it("masks before it cuts, so a credential at the cut is never half shown", () => {
    const name = `${"a".repeat(MAX_SHOWN_MODEL_NAME - 20)} ${GITHUB_TOKEN}`;
    expect(showModelName(name)).not.toContain(GITHUB_TOKEN.slice(0, 15));
    expect(showModelName(`${"😀".repeat(MAX_SHOWN_MODEL_NAME)}`).isWellFormed()).toBe(true);
  });
});
