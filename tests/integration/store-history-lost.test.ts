import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { readRecordedCommit, syncReadModel } from "@/lib/read-model/sync-read-model";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { refreshStore } from "@/lib/store/read-store";
import { distinctProjectMemory } from "../helpers/distinct-memory";

// A team store that lost its history (store.git deleted, main deleted, main reset) while the
// database and the server's clone still know it: start-up stops and says how to put it back,
// nothing is re-created empty, and no approval starts a new history (docs/store.md, "When the
// store's history is missing").
let root: string;
let config: Config;
let db: Db;
let lena = "";
let omar = "";
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-history-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: "" }, root);
  await runSetup(config);
  db = createDb(config);
  await syncReadModel(config, db);
  lena = (await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } })).id;
  omar = (await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).id;
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

const storeGit = (...args: string[]) => execFileSync("git", ["--git-dir", config.storeRemote, ...args], { encoding: "utf8" }).trim();
const storeRefs = () => storeGit("for-each-ref", "--format=%(refname)");
const cloneOriginMain = () => execFileSync("git", ["-C", config.storeCloneDir, "rev-parse", "refs/remotes/origin/main"], { encoding: "utf8" }).trim();

/** npm start after the server stopped: its database client is closed first, as a stopped server's is. */
async function startUp(): Promise<Awaited<ReturnType<typeof runSetup>>> {
  await db.$disconnect();
  try {
    return await runSetup(config);
  } finally {
    db = createDb(config);
  }
}

async function setupError(): Promise<AppError> {
  const error = await startUp().then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("STORE_UNAVAILABLE");
  return error as AppError;
}

/** Runs the commands the message gives between backticks, as an operator would paste them. */
function runRestoreSteps(message: string): void {
  const commands = [...message.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((command) => command.startsWith("git "));
  expect(commands.length).toBeGreaterThan(0);
  for (const command of commands) execFileSync("sh", ["-c", command], { stdio: "pipe" });
}

let counter = 0;
async function approveNew(): Promise<{ state: string; reason: string | undefined }> {
  const label = `history_${counter++}`;
  const proposal = await submitProposal(config, db, { projectId: PROJECT, path: `project_${label}.md`, content: distinctProjectMemory("History", label), source: "member", proposerId: omar });
  const approved = await approveProposal(config, db, { proposalId: proposal.id, approverId: lena, revision: 1 });
  return { state: approved.state, reason: approved.events.at(-1)?.reason ?? undefined };
}

describe("a team store that lost its history", () => {
  it("deleted: start-up stops naming the clone's commits and the recorded commit, creates no empty store, and its steps restore it", async () => {
    const head = storeGit("rev-parse", "main");
    const rows = await db.storeMemory.count();
    expect(await readRecordedCommit(db)).toBe(head);
    await rm(config.storeRemote, { recursive: true, force: true });

    const error = await setupError();
    expect(error.message).toContain(`The team store ${config.storeRemote} is missing`);
    expect(error.message).toContain(`the database records commit ${head.slice(0, 12)}`);
    expect(error.message).toMatch(new RegExp(`${config.storeCloneDir} holds 31 commits up to ${head.slice(0, 12)}`));
    expect(error.message).toContain("git init --bare");
    expect(existsSync(config.storeRemote)).toBe(false);

    runRestoreSteps(error.message);
    expect(await startUp()).toMatchObject({ createdStore: false });
    expect(storeGit("rev-parse", "main")).toBe(head);
    expect(await db.storeMemory.count()).toBe(rows);
  }, 60_000);

  it("main deleted: reads keep the clone's record, an approval commits nothing, start-up stops, and its steps restore it", async () => {
    const head = storeGit("rev-parse", "main");
    storeGit("update-ref", "-d", "refs/heads/main");

    // The running server: a fetch no longer prunes the clone's record, and no approval starts a new history.
    await refreshStore(config, { force: true });
    expect(cloneOriginMain()).toBe(head);
    const approval = await approveNew();
    expect(approval.state).toBe("commit_failed");
    expect(approval.reason).toMatch(/no main branch/);
    expect(storeRefs()).toBe("");

    const error = await setupError();
    expect(error.message).toContain("has no main branch");
    expect(error.message).toContain(head.slice(0, 12));
    expect(storeRefs()).toBe("");
    runRestoreSteps(error.message);
    await startUp();
    expect(storeGit("rev-parse", "main")).toBe(head);
  }, 60_000);

  it("re-created empty by hand, with the clone's record gone too: an approval makes no root commit in it", async () => {
    const head = storeGit("rev-parse", "main");
    await rm(config.storeRemote, { recursive: true, force: true });
    storeGit("init", "--quiet", "--bare", "--initial-branch=main");
    // As an older teammem left it: its fetch pruned origin/main once main was gone.
    execFileSync("git", ["-C", config.storeCloneDir, "update-ref", "-d", "refs/remotes/origin/main"]);

    const approval = await approveNew();
    expect(approval.state).toBe("commit_failed");
    expect(approval.reason).toContain(`has no main branch, though teammem recorded commit ${head.slice(0, 12)} as its head`);
    expect(storeRefs()).toBe("");

    // The clone's own main (where the demo was committed) and the database still know it.
    const error = await setupError();
    expect(error.message).toContain("has no main branch");
    runRestoreSteps(error.message);
    await startUp();
    expect(storeGit("rev-parse", "main")).toBe(head);
  }, 60_000);

  it("main reset to an older commit: an approval commits nothing, start-up stops, and a fast-forward push restores it", async () => {
    const head = storeGit("rev-parse", "main");
    const older = storeGit("rev-parse", "main~5");
    storeGit("update-ref", "refs/heads/main", older);

    const approval = await approveNew();
    expect(approval.state).toBe("commit_failed");
    expect(approval.reason).toMatch(/does not contain commit/);
    expect(storeGit("rev-parse", "main")).toBe(older);
    // The rows stay at the recorded commit: they never move back to an older head.
    expect(await readRecordedCommit(db)).toBe(head);

    const error = await setupError();
    expect(error.message).toContain(`The team store's main branch (${older.slice(0, 12)}) does not contain commit ${head.slice(0, 12)}`);
    expect(error.message).toContain("a fast-forward");
    expect(error.message).toContain("teammem reindex");
    runRestoreSteps(error.message);
    await startUp();
    expect(storeGit("rev-parse", "main")).toBe(head);
    expect((await approveNew()).state).toBe("committed");
  }, 60_000);

  it("deleted after a push from outside that the clone only borrowed: start-up names what the clone lacks and offers no restore that would fail", async () => {
    const outside = path.join(root, "outside");
    execFileSync("git", ["clone", "-q", config.storeRemote, outside]);
    execFileSync("sh", ["-c", `printf -- '---\\nname: Outside\\ndescription: pushed by hand\\ntype: project\\n---\\nBody.\\n' > projects/${PROJECT}/project_outside.md && git add -A && git -c user.name=O -c user.email=o@x commit -qm outside && git push -q origin HEAD:main`], { cwd: outside });
    await refreshStore(config, { force: true });
    await syncReadModel(config, db);
    const head = storeGit("rev-parse", "main");
    const backup = `${config.storeRemote}.backup`;
    execFileSync("cp", ["-a", config.storeRemote, backup]);
    await rm(config.storeRemote, { recursive: true, force: true });
    try {
      const error = await setupError();
      expect(error.message).toContain(`The team store ${config.storeRemote} is missing`);
      expect(error.message).toContain(`names commit ${head.slice(0, 12)} but lacks objects of its history`);
      expect(error.message).not.toContain("git init --bare");
      expect(error.message).toContain("restore the store from a backup");
    } finally {
      await rm(config.storeRemote, { recursive: true, force: true });
      execFileSync("mv", [backup, config.storeRemote]);
    }
    await startUp();
    expect(storeGit("rev-parse", "main")).toBe(head);
  }, 60_000);
});
