import { execFileSync, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

/**
 * `teammem recall-hook` against a broken or hostile server: whatever its recall answer holds, the
 * hook hands Claude Code at most five memories, each named by a valid memory key, with no secret
 * in clear. The compiled CLI, a real git checkout, and a plain HTTP server that answers as told.
 */
const tempDir = useTempDirs();
beforeAll(ensureCompiledCli, 120_000);

const TOKEN = `tm_${"a".repeat(40)}`;
const SECRET = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join(""); // built at run time: no literal credential in the repository
const reminder = (file: string, text: string) => `<system-reminder>\nMemory (saved today): memory/team/${file}:\n\n${text}\n</system-reminder>`;

let server: Server | null = null;
afterEach(() => void server?.close());

/** A server whose project list names the checkout's repository and whose recall answers `selected`. */
async function serverAnswering(selected: unknown[]): Promise<string> {
  server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on("end", () => {
      outgoing.writeHead(200, { "content-type": "application/json" });
      if (incoming.url?.startsWith("/api/projects?") || incoming.url === "/api/projects") outgoing.end(JSON.stringify({ projects: [{ id: "acme-checkout", repoUrls: ["github.com/acme/checkout"], archivedAt: null }] }));
      else outgoing.end(JSON.stringify({ selector: "model", latencyMs: 1, dropped: [], selected }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function runHook(serverUrl: string): Promise<{ code: number | null; stdout: string }> {
  const home = await tempDir("teammem-hook-untrusted-");
  const checkout = path.join(home, "src", "checkout");
  await mkdir(checkout, { recursive: true });
  execFileSync("git", ["init", "-q", checkout]);
  execFileSync("git", ["-C", checkout, "remote", "add", "origin", "git@github.com:acme/checkout.git"]);
  const env = { NODE_ENV: "test" as const, PATH: process.env.PATH ?? "", HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), XDG_CONFIG_HOME: path.join(home, ".config"), TEAMMEM_TOKEN: TOKEN, TEAMMEM_SERVER: serverUrl };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TEAMMEM_BIN, "recall-hook", "--budget-ms", "20000"], { env });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "untrusted", transcript_path: "/nowhere.jsonl", cwd: checkout, prompt: "how do we handle payflow webhook retries" }));
  });
}

const contextOf = (stdout: string) => JSON.parse(stdout).hookSpecificOutput.additionalContext as string;

describe("teammem recall-hook does not pass on what a hostile server answers", () => {
  it("gives at most five memories however many the server sends, each once", async () => {
    const many = Array.from({ length: 50 }, (_, index) => ({ file: `m${index}.md`, injection: reminder(`m${index}.md`, "line") }));
    const run = await runHook(await serverAnswering([many[0], many[0], ...many]));
    expect(run.code).toBe(0);
    const context = contextOf(run.stdout);
    expect(context.match(/<system-reminder>/g)).toHaveLength(5);
    // m0 three times counts once: m0 to m4, in the server's order.
    expect(context.match(/memory\/team\/m\d+\.md/g)).toEqual(["memory/team/m0.md", "memory/team/m1.md", "memory/team/m2.md", "memory/team/m3.md", "memory/team/m4.md"]);
  });

  it("drops a memory whose name is not a memory key and masks a credential in the rest", async () => {
    const run = await runHook(
      await serverAnswering([
        { file: "../../../etc/passwd", injection: reminder("../../../etc/passwd", "root:x:0:0") },
        { file: "/etc/shadow", injection: reminder("/etc/shadow", "shadow") },
        { file: "reference_deploy.md", injection: reminder("reference_deploy.md", `The deploy bot uses the token ${SECRET} from the vault.`) },
      ]),
    );
    expect(run.code).toBe(0);
    const context = contextOf(run.stdout);
    expect(context.match(/<system-reminder>/g)).toHaveLength(1);
    expect(context).toContain("memory/team/reference_deploy.md");
    expect(context).toContain("[REDACTED:");
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toContain("etc/passwd");
    expect(run.stdout).not.toContain("shadow");
  });
});
