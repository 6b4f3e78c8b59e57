import { spawnSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

beforeAll(() => ensureCompiledCli(), 120_000);

function teammem(args: string[], env: Record<string, string>, cwd: string) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, ...args], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A port nothing listens on: taken, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// `teammem sync --quiet` runs from Claude Code's SessionStart hook in every repository the member
// opens: Claude Code shows a failing hook at each session start, so it must never fail there.
describe("teammem sync --quiet, as the SessionStart hook runs it", () => {
  it("says nothing and exits 0 where teammem is not set up (no login, not a checkout)", async () => {
    const home = await tempDir();
    const folder = path.join(home, "notes");
    await mkdir(folder, { recursive: true });
    const quiet = teammem(["sync", "--quiet"], { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude") }, folder);
    expect(quiet).toEqual({ code: 0, stdout: "", stderr: "" });

    // Without --quiet a person is told what is missing, with exit code 2.
    const loud = teammem(["sync"], { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude") }, folder);
    expect(loud.code).toBe(2);
    expect(loud.stderr).toContain("Not logged in");
  });

  it("prints one line and exits 0 when the server cannot be reached", async () => {
    const home = await tempDir();
    const port = await closedPort();
    const quiet = teammem(["sync", "--quiet", "--project", "acme-checkout"], { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), TEAMMEM_SERVER: `http://127.0.0.1:${port}`, TEAMMEM_TOKEN: `tm_${"a1".repeat(20)}` }, home);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout.trim().split("\n")).toHaveLength(1);
    expect(quiet.stdout).toMatch(/unreachable|could not reach/i);
  });
});
