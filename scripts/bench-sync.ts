/**
 * npm run bench:sync [-- --memories N]: teammem sync on a project of N memories (5,000 by
 * default) — first full pull, a sync with nothing changed, a sync after 50 changed files — beside
 * `git clone --depth 1` and `git fetch` of the same store in the same run, and the server's part
 * of a no-op sync. Client and server run in this process over real HTTP, real store, real SQLite.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { PROJECT, startSyncWorld } from "../tests/helpers/member-sync-world";
import { readSyncChanges } from "../lib/member-sync/read-sync-changes";
import { ensureReadModel } from "../lib/read-model/ensure-read-model";
import { refreshStore } from "../lib/store/read-store";
import { runSync } from "../lib/sync/run-sync";

const { values } = parseArgs({ options: { memories: { type: "string", default: "5000" } } });
const count = Number(values.memories);
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

async function main(): Promise<void> {
  const world = await startSyncWorld();
  try {
    const remote = world.config.storeRemote;
    await pushMemories(world.root, remote, Array.from({ length: count }, (_, index) => index), 0, `${count} memories`);
    await refreshStore(world.config, { force: true });
    await ensureReadModel(world.config, world.db);
    const member = await world.makeMemberHome("bench");
    const sync = () => runSync({ config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null }, target: { server: world.base(), token: world.tokens.omar! }, cwd: member.checkout, projectId: null, isDryRun: false, clientVersion: "bench", lockWaitMs: 5_000 });

    const cloneDir = path.join(world.root, "baseline-clone");
    const [cloneMs] = await time(() => git(["clone", "-q", "--depth", "1", `file://${remote}`, cloneDir]));
    const [fullMs, full] = await time(sync);
    const [fetchNoopMs] = await time(() => git(["-C", cloneDir, "fetch", "-q", "origin"]));
    const [noopMs, noop] = await time(sync);
    const head = full.head;
    const serverRuns: number[] = [];
    for (let run = 0; run < 20; run++) serverRuns.push((await time(() => readSyncChanges(world.config, world.db, { projectId: PROJECT, userId: world.userIds.omar, since: head, expectedHead: null, page: 1, pageSize: 500, proposalIds: [] })))[0]);
    serverRuns.sort((a, b) => a - b);

    await pushMemories(world.root, remote, Array.from({ length: 50 }, (_, index) => index * 97 % count), 1, "50 changes");
    await refreshStore(world.config, { force: true });
    const [fetch50Ms] = await time(() => git(["-C", cloneDir, "fetch", "-q", "origin"]));
    const [changedMs, changed] = await time(sync);

    const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
    console.log(`bench:sync — ${count} memories, one process (client + server over HTTP), SQLite`);
    console.log(`first full pull      ${ms(fullMs)}   git clone --depth 1 ${ms(cloneMs)}   ratio ${(fullMs / cloneMs).toFixed(2)}×   (${full.pulled.added.length} files written)`);
    console.log(`no-op sync           ${ms(noopMs)}   git fetch (no-op)   ${ms(fetchNoopMs)}   ratio ${(noopMs / fetchNoopMs).toFixed(2)}×   (mode ${noop.mode})`);
    console.log(`50 changed files     ${ms(changedMs)}   git fetch (50)      ${ms(fetch50Ms)}   ratio ${(changedMs / fetch50Ms).toFixed(2)}×   (${changed.pulled.changed.length} files updated)`);
    console.log(`server part of a no-op (readSyncChanges, 20 runs): median ${serverRuns[10]!.toFixed(1)} ms, max ${serverRuns[19]!.toFixed(1)} ms`);
  } finally {
    await world.stop();
  }
}

void main();
