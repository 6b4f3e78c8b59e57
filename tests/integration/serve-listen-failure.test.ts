import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const root = path.resolve(import.meta.dirname, "../..");
const held: Server[] = [];
afterEach(() => held.splice(0).forEach((server) => server.close()));

async function takenPort(): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

// The production server itself (npm start runs it after setup and the build).
function serve(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "serve.ts")], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { code: result.status, output: (result.stdout + result.stderr).trim() };
}

describe("the server when it cannot listen", () => {
  it("says in one line that PORT is taken and exits 1", async () => {
    const port = await takenPort();
    const result = serve({ TEAMMEM_DATA_DIR: await tempDir(), HOST: "127.0.0.1", PORT: String(port) });
    expect(result.code).toBe(1);
    expect(result.output).toBe(`teammem: Port ${port} on 127.0.0.1 is already in use: stop the program that uses it, or set PORT to a free port.`);
  });

  it("says in one line that HOST is not this machine's and exits 1", async () => {
    const result = serve({ TEAMMEM_DATA_DIR: await tempDir(), HOST: "no_such_host.invalid", PORT: "39517" });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^teammem: HOST=no_such_host\.invalid is not an address of this machine: set HOST to /);
    expect(result.output.split("\n")).toHaveLength(1);
  });
});
