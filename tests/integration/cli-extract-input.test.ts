import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { TranscriptBuilder } from "../helpers/transcript-lines";

/**
 * What `teammem extract` accepts as a transcript. A file that is not a Claude Code session (a
 * README, a JSON document) is bad input, exit 2 with one line on stderr, not "a session with
 * nothing to save"; an empty session or one with nothing to extract is fine (exit 0).
 */
const run = promisify(execFile);
const tempDir = useTempDirs();
beforeAll(() => ensureCompiledCli(), 120_000);

// No server, no login, no model key. Port 9 answers nothing: a run that got that far would fail otherwise.
const offlineEnv = (home: string): NodeJS.ProcessEnv => ({ NODE_ENV: "test", PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), TEAMMEM_SERVER: "http://127.0.0.1:9", TEAMMEM_DATA_DIR: path.join(home, "data") });

async function extract(home: string, file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [TEAMMEM_BIN, "extract", file, ...args], { env: offlineEnv(home) }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe("teammem extract on a file that is not a transcript", () => {
  it.each([
    ["Markdown", "# teammem\n\nThe team hub for Claude Code memory.\n\n- always run the tests\n"],
    ["a JSON document", JSON.stringify({ name: "teammem", scripts: { test: "vitest" } }, null, 2)],
    ["JSONL that holds no session records", '{"level":"info","msg":"started"}\n{"level":"warn","msg":"slow"}\n'],
  ])("refuses %s with exit 2 and one line naming the file", async (_kind, text) => {
    const home = await tempDir();
    const file = path.join(home, "notes.jsonl");
    await writeFile(file, text);
    for (const args of [["--dry-run", "--json"], ["--project", "acme-checkout"]]) {
      const result = await extract(home, file, args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`teammem extract: ${file} is not a Claude Code transcript (JSONL of session records, as in ~/.claude/projects/<project>/<session>.jsonl).\n`);
    }
  });

  it("accepts an empty session and a session with nothing to extract (exit 0, no candidates)", async () => {
    const home = await tempDir();
    const empty = path.join(home, "empty.jsonl");
    await writeFile(empty, "");
    const quiet = new TranscriptBuilder();
    quiet.user("What does this function return?");
    quiet.assistant([{ text: "It returns the total in cents." }]);
    const chat = path.join(home, "chat.jsonl");
    await writeFile(chat, quiet.text());
    for (const file of [empty, chat]) {
      const result = await extract(home, file, ["--dry-run", "--json"]);
      expect([result.code, result.stderr]).toEqual([0, ""]);
      expect(JSON.parse(result.stdout).candidates).toEqual([]);
    }
  });
});
