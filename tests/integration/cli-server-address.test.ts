import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { setUpDemoWithToken } from "../helpers/demo-token";

/**
 * Which server the CLI talks to. The server here is the product's own /api/me route handler
 * behind a plain HTTP listener on a free port (not 3000), over a real setup and a real token.
 */
const tempDir = useTempDirs();
// What users run: the compiled CLI (built here when missing or older than its sources).
const cli = TEAMMEM_BIN;
beforeAll(ensureCompiledCli);
let worldDir = "";
let server: Server;
let serverUrl = "";
let token = "";
let closeDb: () => Promise<void>;

async function buildWorld() {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-cli-server-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "cli-server-password-1";
  token = await setUpDemoWithToken("lena@acme.example", { name: "cli", projectIds: ["acme-checkout"] });
  const { getDatabase } = await import("@/app/_server/context");
  closeDb = () => getDatabase().$disconnect();

  const { GET } = await import("@/app/api/me/route");
  server = createServer((incoming, outgoing) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    void GET(new Request(`http://127.0.0.1${incoming.url}`, { headers }), { params: Promise.resolve({}) }).then(async (response) => {
      outgoing.writeHead(response.status, { "content-type": "application/json" });
      outgoing.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs the CLI without blocking this process (its server must keep answering). */
function teammem(args: string[], env: Record<string, string>, stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("the CLI's server address", () => {
  beforeAll(buildWorld, 120_000);
  afterAll(async () => {
    server?.close();
    await closeDb?.();
    await rm(worldDir, { recursive: true, force: true });
  });

  it("uses TEAMMEM_SERVER with TEAMMEM_TOKEN when nothing was saved", async () => {
    const configHome = await tempDir();
    const result = await teammem(["whoami", "--json"], { XDG_CONFIG_HOME: configHome, TEAMMEM_TOKEN: token, TEAMMEM_SERVER: serverUrl });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ server: serverUrl, user: { email: "lena@acme.example" } });
  });

  it("uses the saved login's server for TEAMMEM_TOKEN when TEAMMEM_SERVER is not set", async () => {
    const configHome = await tempDir();
    const login = await teammem(["login", "--server", serverUrl], { XDG_CONFIG_HOME: configHome }, token + "\n");
    expect(login.code).toBe(0);
    const result = await teammem(["whoami", "--json"], { XDG_CONFIG_HOME: configHome, TEAMMEM_TOKEN: token });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).server).toBe(serverUrl);
    // A later login needs no --server: the saved one is checked again.
    expect((await teammem(["login"], { XDG_CONFIG_HOME: configHome }, token + "\n")).code).toBe(0);
  });

  it("with a token but no known server, says how to name one instead of guessing an address", async () => {
    const configHome = await tempDir();
    const result = await teammem(["whoami"], { XDG_CONFIG_HOME: configHome, TEAMMEM_TOKEN: token });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("teammem login --server URL");
    expect(result.stderr).toContain("TEAMMEM_SERVER");
    expect(result.stderr).not.toContain(":3000");
    const login = await teammem(["login"], { XDG_CONFIG_HOME: configHome }, token + "\n");
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain("teammem login --server URL");
  });

  it("when the server does not answer, names the address tried and how to change it", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await teammem(["whoami"], { XDG_CONFIG_HOME: await tempDir(), TEAMMEM_TOKEN: token, TEAMMEM_SERVER: deadUrl });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(deadUrl);
    expect(result.stderr).toContain("teammem login --server URL");
    expect(result.stderr).toContain("TEAMMEM_SERVER");
  });

  it("never sends a saved token to a different TEAMMEM_SERVER", async () => {
    const configHome = await tempDir();
    expect((await teammem(["login", "--server", serverUrl], { XDG_CONFIG_HOME: configHome }, token + "\n")).code).toBe(0);
    const result = await teammem(["whoami"], { XDG_CONFIG_HOME: configHome, TEAMMEM_SERVER: "https://elsewhere.example" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/saved login is for .*teammem login --server https:\/\/elsewhere\.example/);
  });

  it("refuses a TEAMMEM_SERVER that is not an http(s) address", async () => {
    const result = await teammem(["whoami"], { XDG_CONFIG_HOME: await tempDir(), TEAMMEM_SERVER: "teammem.example.com" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/TEAMMEM_SERVER must be the http\(s\) address/);
  });

  it("refuses a server address holding a user name or password, without printing it, and saves nothing", async () => {
    const configHome = await tempDir();
    const withPassword = serverUrl.replace("http://", "http://omar:srvsecretpw@");
    const fromEnv = await teammem(["whoami"], { XDG_CONFIG_HOME: configHome, TEAMMEM_TOKEN: token, TEAMMEM_SERVER: withPassword });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/TEAMMEM_SERVER must not hold a user name or password/);
    const fromFlag = await teammem(["login", "--server", withPassword], { XDG_CONFIG_HOME: configHome }, token + "\n");
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toMatch(/--server must not hold a user name or password/);
    for (const result of [fromEnv, fromFlag]) expect(result.stdout + result.stderr).not.toContain("srvsecretpw");
    // Nothing was saved: the next command still says how to log in.
    expect((await teammem(["whoami"], { XDG_CONFIG_HOME: configHome })).stderr).toContain("Not logged in");
  });

  it("asks for the token on a terminal without showing it, and logs in with it", async () => {
    const configHome = await tempDir();
    const transcript = path.join(configHome, "terminal.txt");
    // script(1) gives the CLI a pseudo-terminal, as a member's shell does; the token is typed after the prompt.
    const command = `${process.execPath} ${cli} login --server ${serverUrl}`;
    const child = spawn("script", ["-qfc", command, transcript], { env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: configHome, XDG_CONFIG_HOME: configHome } });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    // Typed once the prompt shows (the terminal is then no longer echoing), as a person would.
    await expect.poll(() => readFile(transcript, "utf8").catch(() => ""), { timeout: 20_000, interval: 50 }).toContain("Paste your API token");
    child.stdin.write(`${token}\r`);
    const code = await closed;
    const screen = await readFile(transcript, "utf8");
    expect(code).toBe(0);
    expect(screen).toContain("Paste your API token");
    expect(screen).not.toContain(token.slice(3, 20));
    expect((await teammem(["whoami"], { XDG_CONFIG_HOME: configHome })).code).toBe(0);
  });
});
