import { spawn, spawnSync } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

// The installed `teammem` as users start it: compiled JavaScript, loading only what the command
// uses, and quiet when its reader goes away.

const tempDir = useTempDirs();

beforeAll(ensureCompiledCli);

type Run = { code: number | null; stdout: string; stderr: string; loaded: string[]; bundled: string[] };

/**
 * Runs the CLI with a module hook that records every package it imports (tsx, the SDK…) and every
 * file it loads, written synchronously from the hooks thread so nothing is lost at exit.
 * `bundled` names the packages inside the compiled chunks it loaded (each chunk's source map lists
 * the files that went into it), such as zod, which the build bundles.
 */
async function teammemRecordingImports(args: string[]): Promise<Run> {
  const dir = await tempDir("teammem-imports-");
  const logFile = path.join(dir, "imports.log");
  const filesLog = path.join(dir, "files.log");
  await writeFile(logFile, "");
  await writeFile(filesLog, "");
  await writeFile(
    path.join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  if (!/^(\\.|\\/|node:|file:|data:)/.test(specifier)) appendFileSync(${JSON.stringify(logFile)}, specifier + "\\n");
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith("file:")) appendFileSync(${JSON.stringify(filesLog)}, resolved.url + "\\n");
  return resolved;
}\n`,
  );
  await writeFile(path.join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(path.join(dir, "hooks.mjs")).href)});\n`);
  const result = await run(["--import", pathToFileURL(path.join(dir, "register.mjs")).href, TEAMMEM_BIN, ...args]);
  const loaded = (await readFile(logFile, "utf8")).split("\n").filter(Boolean);
  const chunks = (await readFile(filesLog, "utf8")).split("\n").filter((url) => url.includes("/generated/cli/"));
  const bundled = new Set<string>();
  for (const url of new Set(chunks)) {
    for (const source of await bundledSources(new URL(url))) {
      const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
      if (match) bundled.add(match[1]!);
    }
  }
  return { ...result, loaded, bundled: [...bundled] };
}

/** The files esbuild put into one compiled chunk, from its source map. */
async function bundledSources(chunk: URL | string): Promise<string[]> {
  const map = JSON.parse(await readFile(`${chunk instanceof URL ? chunk.pathname : chunk}.map`, "utf8")) as { sources: string[] };
  return map.sources;
}

function run(nodeArgs: string[], options: { closeStdoutAfterFirstChunk?: boolean } = {}): Promise<Omit<Run, "loaded" | "bundled">> {
  return new Promise((resolve, reject) => {
    // No ANTHROPIC_* here: recall must take the local path.
    const child = spawn(process.execPath, nodeArgs, { env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: path.dirname(TEAMMEM_BIN) } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (options.closeStdoutAfterFirstChunk) child.stdout.destroy(); // like `| head -1`
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A loopback port nothing listens on: opened, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function writeMemories(count: number): Promise<string> {
  const dir = await tempDir("teammem-memories-");
  for (let number = 0; number < count; number++) {
    await writeFile(path.join(dir, `rule_${number}.md`), `---\nname: Rule ${number}\ndescription: billing: invoice export rule ${number}\ntype: project\n---\nInvoices export nightly.\n`);
  }
  return dir;
}

describe("the installed teammem command", () => {
  it("prints its version from the compiled build without starting a TypeScript loader", async () => {
    const result = await teammemRecordingImports(["--version"]);
    const { version } = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
    expect(result.loaded).toEqual([]);
  });

  it("lists its commands with --help without loading any of them", async () => {
    const result = await teammemRecordingImports(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("scan");
    expect(result.stdout).toContain("projects");
    expect(result.loaded).toEqual([]);
  });

  it("scans a folder without loading configuration, the database, the model SDK or tsx", async () => {
    const result = await teammemRecordingImports(["scan", await writeMemories(3)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("billing: invoice export rule 2");
    expect(result.loaded).not.toEqual(expect.arrayContaining(["tsx/esm/api"]));
    for (const heavy of ["zod", "@anthropic-ai/sdk", "@prisma/client/runtime/client", "better-auth", "simple-git"]) {
      expect(result.loaded.some((specifier) => specifier.startsWith(heavy))).toBe(false);
    }
    expect(result.bundled).not.toContain("gray-matter"); // flat frontmatter needs no YAML reader (memory-header.ts)
    expect(result.bundled).not.toContain("zod");
  });

  it("bundles zod's mini build only: its full build was ~250 KB more for every command to load", async () => {
    const dir = path.join(process.cwd(), "generated", "cli");
    const chunks = (await readdir(dir)).filter((file) => file.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(10);
    const sources = (await Promise.all(chunks.map((file) => bundledSources(path.join(dir, file))))).flat();
    expect(sources.some((source) => source.includes("node_modules/zod/v4/mini/"))).toBe(true);
    expect(sources.filter((source) => source.includes("node_modules/zod/v4/classic/"))).toEqual([]);
  });

  it("lists flat memories without loading a YAML library, and loads one for a file only YAML reads", async () => {
    const dir = await writeMemories(5);
    const flat = await teammemRecordingImports(["scan", dir, "--json"]);
    expect(flat.code).toBe(0);
    expect((JSON.parse(flat.stdout) as { total: number }).total).toBe(5);
    expect(flat.bundled).not.toContain("js-yaml");
    await writeFile(path.join(dir, "folded.md"), "---\nname: Folded\ndescription: >\n  read by\n  YAML only\ntype: user\n---\nBody\n");
    const withYaml = await teammemRecordingImports(["scan", dir, "--json"]);
    expect((JSON.parse(withYaml.stdout) as { memories: { file: string; description: string }[] }).memories).toContainEqual(expect.objectContaining({ file: "folded.md", description: "read by YAML only" }));
    expect(withYaml.bundled).toContain("js-yaml");
  });

  it("recalls without a model key and never loads the model SDK", async () => {
    const result = await teammemRecordingImports(["recall", await writeMemories(5), "--query", "how do invoice exports run", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ selector: "local" });
    expect(result.loaded.some((specifier) => specifier.startsWith("@anthropic-ai/sdk"))).toBe(false);
    // Nor zod: the configuration has its own readers and the model's answer schema loads with the model.
    expect(result.bundled).toContain("minisearch");
    expect(result.bundled).not.toContain("zod");
  });

  it("with a model key, loads the SDK from the compiled CLI and falls back to the local ranker when the model is unreachable", async () => {
    const port = await closedPort();
    const result = spawnSync(process.execPath, [TEAMMEM_BIN, "recall", await writeMemories(5), "--query", "how do invoice exports run"], {
      encoding: "utf8",
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: path.dirname(TEAMMEM_BIN), ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/selector: local \(fell back: connection: The recall model could not be reached/);
  });

  it("ends quietly with exit 0 when the reader closes the pipe early (teammem scan … | head -1)", async () => {
    const dir = await writeMemories(3_000);
    const result = await run([TEAMMEM_BIN, "scan", dir, "--all"], { closeStdoutAfterFirstChunk: true });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("billing: invoice export rule");
  });
});

describe("the installed teammem command ending its process", () => {
  it("keeps a failed check's exit code when the reader closes the pipe early (teammem lint … | head -1)", async () => {
    const dir = await tempDir("teammem-lint-pipe-");
    for (let number = 0; number < 2_000; number++) await writeFile(path.join(dir, `note_${number}.md`), "no frontmatter here\n");
    const result = await run([TEAMMEM_BIN, "lint", dir], { closeStdoutAfterFirstChunk: true });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
  });

  it("says in one line that the output could not be written (a full disk), with exit 1", () => {
    const result = spawnSync("sh", ["-c", `"${process.execPath}" "${TEAMMEM_BIN}" scan "${path.dirname(TEAMMEM_BIN)}" --all --json > /dev/full`], { encoding: "utf8", env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: path.dirname(TEAMMEM_BIN) } });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("teammem: could not write the output (ENOSPC).\n");
  });

  it("hands a slow reader every byte of a large answer before it ends, with the command's exit code", async () => {
    const dir = await writeMemories(2_000);
    // The reader takes its time, so the answer is still in the pipe when the command is done.
    const result = spawnSync("sh", ["-c", `"${process.execPath}" "${TEAMMEM_BIN}" scan "${dir}" --all --json | (sleep 0.3; cat)`], { encoding: "utf8", maxBuffer: 1 << 26, env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: path.dirname(TEAMMEM_BIN) } });
    const answer = JSON.parse(result.stdout) as { total: number; memories: unknown[] };
    expect(answer.total).toBe(2_000);
    expect(answer.memories).toHaveLength(2_000);
    const missing = spawnSync(process.execPath, [TEAMMEM_BIN, "scan", path.join(dir, "missing")], { encoding: "utf8", env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: path.dirname(TEAMMEM_BIN) } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("missing");
  });
});

describe("choosing between the compiled CLI and the TypeScript sources", () => {
  /** A copy of the launcher's check in a scratch tree: one bundled source, one build record. */
  async function scratchTree(): Promise<{ root: string; source: string; find: () => Promise<string | null> }> {
    const root = await tempDir("teammem-compiled-");
    await mkdir(path.join(root, "cli"));
    await mkdir(path.join(root, "lib"));
    await mkdir(path.join(root, "generated/cli"), { recursive: true });
    await copyFile(path.resolve("cli/find-compiled-cli.mjs"), path.join(root, "cli/find-compiled-cli.mjs"));
    const source = path.join(root, "lib/feature.ts");
    await writeFile(source, "export const feature = 1;\n");
    const builtAt = new Date("2026-01-01T00:00:00Z");
    await utimes(source, new Date("2025-12-31T00:00:00Z"), new Date("2025-12-31T00:00:00Z"));
    await writeFile(path.join(root, "generated/cli/build.json"), JSON.stringify({ startedAtMs: builtAt.getTime(), inputs: ["lib/feature.ts"] }));
    const moduleUrl = pathToFileURL(path.join(root, "cli/find-compiled-cli.mjs")).href;
    const find = async () => ((await import(/* @vite-ignore */ moduleUrl)) as { findCompiledCli(): string | null }).findCompiledCli();
    return { root, source, find };
  }

  it("runs the build while its sources are unchanged", async () => {
    const tree = await scratchTree();
    expect(await tree.find()).toBe(path.join(tree.root, "generated/cli/main.js"));
  });

  it("falls back to the sources once one is edited after the build, or deleted", async () => {
    const tree = await scratchTree();
    await utimes(tree.source, new Date("2026-01-02T00:00:00Z"), new Date("2026-01-02T00:00:00Z"));
    expect(await tree.find()).toBeNull();
    await writeFile(path.join(tree.root, "generated/cli/build.json"), JSON.stringify({ startedAtMs: Date.parse("2026-01-01T00:00:00Z"), inputs: ["lib/gone.ts"] }));
    expect(await tree.find()).toBeNull();
  });

  it("falls back when there is no build at all", async () => {
    const tree = await scratchTree();
    await writeFile(path.join(tree.root, "generated/cli/build.json"), "");
    expect(await tree.find()).toBeNull();
  });
});

describe("server commands from the compiled CLI", () => {
  it("creates and lists an account through the bundled Prisma client and better-auth", async () => {
    const dataDir = path.join(await tempDir("teammem-users-"), "data");
    await runSetup(loadConfig({ TEAMMEM_DATA_DIR: dataDir }));
    const env = { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: dataDir, TEAMMEM_DATA_DIR: dataDir } as const;
    const teammem = (args: string[]) => spawnSync(process.execPath, [TEAMMEM_BIN, ...args], { encoding: "utf8", env });
    const created = teammem(["users", "create", "ada@example.com", "--name", "Ada", "--json"]);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    const listed = teammem(["users", "list", "--json"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain("ada@example.com");
  });
});
