import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create-project";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { distinctProjectMemory } from "../helpers/distinct-memory";

// `store.git/refs/heads/main.lock` left by a git process that was killed while moving main
// (docs/store.md, "Pushing to a store on the same disk"): it blocked every approval, answered
// "the team store kept changing", forever and without a log line.
let root: string;
let config: Config;
let db: Db;
let lena = "";
let omar = "";
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-ref-lock-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: "" }, root);
  await runSetup(config);
  db = createDb(config);
  lena = (await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } })).id;
  omar = (await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).id;
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const mainHead = () => execFileSync("git", ["--git-dir", config.storeRemote, "rev-parse", "main"], { encoding: "utf8" }).trim();
const lockFile = () => path.join(config.storeRemote, "refs", "heads", "main.lock");

async function leaveLock(ageMs: number): Promise<void> {
  await writeFile(lockFile(), "");
  const then = new Date(Date.now() - ageMs);
  await utimes(lockFile(), then, then);
}

/** The log lines written while `work` runs (lib/log.ts writes one JSON line per event to stderr). */
async function logLinesDuring<T>(work: () => Promise<T>): Promise<{ value: T; events: string[] }> {
  const events: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    const match = /"event":"([^"]+)"/.exec(String(chunk));
    if (match) events.push(match[1]!);
    return true;
  });
  return { value: await work(), events };
}

let counter = 0;
async function approveNew(): Promise<{ state: string; reason: string | undefined }> {
  const label = `ref_lock_${counter++}`;
  const proposal = await submitProposal(config, db, { projectId: PROJECT, path: `project_${label}.md`, content: distinctProjectMemory("Ref lock", label), source: "member", proposerId: omar });
  const approved = await approveProposal(config, db, { proposalId: proposal.id, approverId: lena, revision: 1 });
  return { state: approved.state, reason: approved.events.at(-1)?.reason ?? undefined };
}

describe("a lock on the store's main", () => {
  it("left by a process that is gone: removed and logged once, and the approval commits", async () => {
    await leaveLock(2 * 60_000);
    const { value: approval, events } = await logLinesDuring(() => approveNew());
    expect(approval.state).toBe("committed");
    expect(existsSync(lockFile())).toBe(false);
    expect(events.filter((event) => event === "store.stale_ref_lock_removed")).toHaveLength(1);
    expect(events).not.toContain("store.push_retry");

    const next = await logLinesDuring(() => approveNew());
    expect(next.value.state).toBe("committed");
    expect(next.events).not.toContain("store.stale_ref_lock_removed");
  }, 60_000);

  it("left by a process that is gone: a project change goes on too", async () => {
    await leaveLock(2 * 60_000);
    const admin = await db.user.findUniqueOrThrow({ where: { email: "admin@teammem.local" } });
    const project = await createProject(config, db, { actor: { userId: admin.id, name: admin.name, email: admin.email }, input: { name: "Ledger" } });
    expect(project.id).toBeTruthy();
    expect(existsSync(lockFile())).toBe(false);
    expect(execFileSync("git", ["--git-dir", config.storeRemote, "show", "main:teammem.json"], { encoding: "utf8" })).toContain("Ledger");
  }, 60_000);

  it("held right now by something else: the approval fails naming the file and what to do, and the lock stays", async () => {
    const before = mainHead();
    await leaveLock(0);
    const approval = await approveNew();
    expect(approval.state).toBe("commit_failed");
    expect(approval.reason).toContain(lockFile());
    expect(approval.reason).toMatch(/remove that file and try again/);
    expect(approval.reason).not.toMatch(/kept changing/);
    expect(existsSync(lockFile())).toBe(true);
    expect(mainHead()).toBe(before);

    await rm(lockFile());
    expect((await approveNew()).state).toBe("committed");
  }, 60_000);
});
