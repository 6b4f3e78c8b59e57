/**
 * npm run bench:sync [-- --memories N --rounds R]: teammem sync on a project of N memories
 * (5,000 by default) — first full pull and a sync with nothing changed (each in process and as
 * the compiled CLI), a sync after 50 changed files — beside `git clone --depth 1` and `git fetch`
 * of the same store in the same rounds (medians of R, 3 by default), `node -e 0` (the floor of
 * any Node.js process), and the server's part of a no-op sync. The server runs in this process
 * over real HTTP, real store, real SQLite; the in-process rows run the client here too.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { COMPILED_ENTRY } from "../cli/find-compiled-cli.mjs";
import { ensureCompiledCli } from "../tests/helpers/compiled-cli";
import { PROJECT, startSyncWorld } from "../tests/helpers/member-sync-world";
import { readSyncChanges } from "../lib/member-sync/read-sync-changes";
import { ensureReadModel } from "../lib/read-model/ensure-read-model";
import { refreshStore } from "../lib/store/read-store";
import { runSync } from "../lib/sync/run-sync";

const { values } = parseArgs({ options: { memories: { type: "string", default: "5000" }, rounds: { type: "string", default: "3" } } });
const count = Number(values.memories);
const rounds = Number(values.rounds);
const git = (args: string[], cwd?: string) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString().trim();
const time = async <T>(work: () => Promise<T> | T): Promise<[number, T]> => {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
};
const memory = (index: number, revision = 0) =>
  `---\nname: Bench memory ${index}\ndescription: Decision ${index} about the checkout service (rev ${revision})\ntype: project\n---\nRetry budget ${index} is ${revision + 30} per minute since 2026-11-01.\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;

async function pushMemories(worldRoot: string, remote: string, indexes: number[], revision: number, message: string): Promise<void> {
  const clone = path.join(worldRoot, "bench-writer");
  try {
    git(["-C", clone, "pull", "-q", "origin", "main"]);
  } catch {
    git(["clone", "-q", remote, clone]);
  }
  const folder = path.join(clone, "projects", PROJECT);
  await mkdir(folder, { recursive: true });
  for (const index of indexes) await writeFile(path.join(folder, `project_bench_${index}.md`), memory(index, revision));
  git(["-C", clone, "add", "."]);
  git(["-C", clone, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", message]);
  git(["-C", clone, "push", "-q", "origin", "HEAD:main"]);
}

/** git as its own process, awaited as the CLI rows are. */
function gitAsync(args: string[]): Promise<number | null> {
  return new Promise((resolve) => spawn("git", args, { stdio: "ignore" }).on("close", resolve));
}

/** `node RUNNER ARGS…` (the compiled CLI; or `-e 0`, the start-up floor). */
function runCompiledCli(runner: string, args: string[], env: Record<string, string>, cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runner, ...args], { cwd, env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env }, stdio: "ignore" });
    child.on("close", (code) => resolve(code));
  });
}

async function main(): Promise<void> {
  ensureCompiledCli();
  const world = await startSyncWorld();
  try {
    const remote = world.config.storeRemote;
    // The compiled entry itself, not the launcher: where others edit the tree, the launcher finds
    // the bundle stale and runs the TypeScript through tsx, which is not what members run.
    const compiledRunner = path.join(world.root, "run-compiled.mjs");
    await writeFile(compiledRunner, `const { main } = await import(${JSON.stringify(COMPILED_ENTRY)});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
    await pushMemories(world.root, remote, Array.from({ length: count }, (_, index) => index), 0, `${count} memories`);
    await refreshStore(world.config, { force: true });
    await ensureReadModel(world.config, world.db);
    // The machine is shared: each measurement runs `rounds` times, each round on a fresh clone and
    // a fresh member home, and the medians are compared (every row: baseline in the same round).
    const rows: Record<"clone" | "full" | "cliFull" | "fetchNoop" | "noop" | "cliNoop" | "nodeStart" | "readModel50" | "fetch50" | "changed", number[]> = { clone: [], full: [], cliFull: [], fetchNoop: [], noop: [], cliNoop: [], nodeStart: [], readModel50: [], fetch50: [], changed: [] };
    let written = 0;
    for (let round = 0; round < rounds; round++) {
      const member = await world.makeMemberHome(`bench-${round}`);
      const sync = () => runSync({ config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null }, target: { server: world.base(), token: world.tokens.omar! }, cwd: member.checkout, projectId: null, isDryRun: false, clientVersion: "bench", lockWaitMs: 5_000 });
      const cloneDir = path.join(world.root, `baseline-clone-${round}`);
      rows.clone.push((await time(() => gitAsync(["clone", "-q", "--depth", "1", `file://${remote}`, cloneDir])))[0]);
      // As a member runs it: the compiled CLI in its own process, the server in this one (as git's
      // clone and its upload-pack are two processes).
      const cliMember = await world.makeMemberHome(`bench-cli-${round}`);
      const cliEnv = { HOME: cliMember.home, XDG_CONFIG_HOME: path.join(cliMember.home, ".config"), TEAMMEM_SERVER: world.base(), TEAMMEM_TOKEN: world.tokens.omar! };
      const cliFull = await time(() => runCompiledCli(compiledRunner, ["sync"], cliEnv, cliMember.checkout));
      if (cliFull[1] !== 0) throw new Error(`teammem sync (compiled CLI, first pull) exited with ${cliFull[1]}`);
      rows.cliFull.push(cliFull[0]);
      const [fullMs, full] = await time(sync);
      rows.full.push(fullMs);
      written = full.pulled.added.length;
      // Files written within the last two seconds are read again by the next sync (racy mtimes,
      // as git's index treats them); a member's next sync is rarely that close.
      await sleep(2_100);
      rows.fetchNoop.push((await time(() => gitAsync(["-C", cloneDir, "fetch", "-q", "origin"])))[0]);
      rows.nodeStart.push((await time(() => runCompiledCli("-e", ["0"], {}, member.checkout)))[0]);
      rows.noop.push((await time(sync))[0]);
      const cli = await time(() => runCompiledCli(compiledRunner, ["sync"], { HOME: member.home, XDG_CONFIG_HOME: path.join(member.home, ".config"), TEAMMEM_SERVER: world.base(), TEAMMEM_TOKEN: world.tokens.omar! }, member.checkout));
      if (cli[1] !== 0) throw new Error(`teammem sync (compiled CLI) exited with ${cli[1]}`);
      rows.cliNoop.push(cli[0]);

      await pushMemories(world.root, remote, Array.from({ length: 50 }, (_, index) => (index * 97 + round) % count), round + 1, "50 changes");
      await refreshStore(world.config, { force: true });
      // Once per store change for every member: the server's read model catching up (timed apart).
      rows.readModel50.push((await time(() => ensureReadModel(world.config, world.db)))[0]);
      rows.fetch50.push((await time(() => gitAsync(["-C", cloneDir, "fetch", "-q", "origin"])))[0]);
      const [changedMs, changed] = await time(sync);
      if (changed.pulled.changed.length !== 50) throw new Error(`the 50-change sync updated ${changed.pulled.changed.length} files`);
      rows.changed.push(changedMs);
    }
    const head = (await ensureReadModel(world.config, world.db)).commit;
    const serverRuns: number[] = [];
    for (let run = 0; run < 20; run++) serverRuns.push((await time(() => readSyncChanges(world.config, world.db, { projectId: PROJECT, userId: world.userIds.omar, since: head, expectedHead: null, page: 1, pageSize: 500, proposalIds: [] })))[0]);

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
    const row = (label: string, ours: number[], baselineLabel: string, baseline: number[], note = "") =>
      console.log(`${label.padEnd(28)} ${ms(median(ours))}   ${baselineLabel.padEnd(20)} ${ms(median(baseline))}   ratio ${(median(ours) / median(baseline)).toFixed(2)}×${note}`);
    console.log(`bench:sync — ${count} memories, medians of ${rounds} rounds; client + server over HTTP in one process (SQLite), except the CLI row`);
    row("first full pull", rows.full, "git clone --depth 1", rows.clone, `   (${written} files written)`);
    row("first full pull (compiled CLI)", rows.cliFull, "git clone --depth 1", rows.clone, "   (a whole `teammem sync` process, server in this one)");
    row("no-op sync (in process)", rows.noop, "git fetch (no-op)", rows.fetchNoop);
    row("no-op sync (compiled CLI)", rows.cliNoop, "git fetch (no-op)", rows.fetchNoop, "   (a whole `teammem sync` process)");
    row("node -e 0 (start-up floor)", rows.nodeStart, "git fetch (no-op)", rows.fetchNoop, "   (any Node.js process before it does anything)");
    row("50 changed files", rows.changed, "git fetch (50)", rows.fetch50, `   (server read model catching up first, once for all members: ${ms(median(rows.readModel50)).trim()})`);
    serverRuns.sort((a, b) => a - b);
    console.log(`server part of a no-op (readSyncChanges, 20 runs): median ${serverRuns[10]!.toFixed(1)} ms, max ${serverRuns[19]!.toFixed(1)} ms`);
    console.log(`rounds: ${JSON.stringify(Object.fromEntries(Object.entries(rows).map(([key, values]) => [key, values.map((value) => Math.round(value))])))}`);
  } finally {
    await world.stop();
  }
}

void main();
