import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rename } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { listStoreProjects } from "@/lib/store/read-store";
import { distinctProjectMemory } from "../helpers/distinct-memory";
import { useTempDirs } from "../helpers/temp-dir";

// A data folder moved (or restored from a backup) to another path: its store-clone still names
// the old path's store.git, and start-up refused it with advice that no longer worked.
const tempDir = useTempDirs();

afterEach(() => {
  vi.restoreAllMocks();
});

const demoConfig = (dataDir: string): Config => loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: "" }, path.dirname(dataDir));
const cloneGit = (config: Config, ...args: string[]) => execFileSync("git", ["-C", config.storeCloneDir, ...args], { encoding: "utf8" }).trim();

/** The log events written while `work` runs (lib/log.ts writes one JSON line per event to stderr). */
async function logEventsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const events: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    const match = /"event":"([^"]+)"/.exec(String(chunk));
    if (match) events.push(match[1]!);
    return true;
  });
  await work();
  return events;
}

describe("a data folder at another path", () => {
  it("moved with its store.git: starts, its clone pointed at the store beside it (logged), and approvals land there", async () => {
    const root = await tempDir();
    const before = demoConfig(path.join(root, "before"));
    await runSetup(before);
    const head = execFileSync("git", ["--git-dir", before.storeRemote, "rev-parse", "main"], { encoding: "utf8" }).trim();
    await rename(before.dataDir, path.join(root, "after"));
    const after = demoConfig(path.join(root, "after"));

    const events = await logEventsDuring(() => runSetup(after));
    expect(events.filter((event) => event === "store.clone_repointed")).toHaveLength(1);
    expect(cloneGit(after, "remote", "get-url", "origin")).toBe(after.storeRemote);
    const alternates = await readFile(path.join(after.storeCloneDir, ".git", "objects", "info", "alternates"), "utf8");
    expect(alternates).toContain(path.join(after.storeRemote, "objects"));
    expect(alternates).not.toContain(before.storeRemote);
    expect(existsSync(before.dataDir)).toBe(false);
    expect((await listStoreProjects(after))[0]).toMatchObject({ id: "acme-checkout", memoryCount: 30 });

    const db = createDb(after);
    try {
      const [lena, omar] = await Promise.all(["lena", "omar"].map(async (name) => (await db.user.findUniqueOrThrow({ where: { email: `${name}@acme.example` } })).id));
      const proposal = await submitProposal(after, db, { projectId: "acme-checkout", path: "project_moved.md", content: distinctProjectMemory("Moved", "moved"), source: "member", proposerId: omar! });
      const approved = await approveProposal(after, db, { proposalId: proposal.id, approverId: lena!, revision: 1 });
      expect(approved.state).toBe("committed");
      expect(execFileSync("git", ["--git-dir", after.storeRemote, "rev-parse", "main~1"], { encoding: "utf8" }).trim()).toBe(head);
    } finally {
      await db.$disconnect();
    }
  }, 120_000);

  it("a clone of another store: refused naming the safe way out (move the clone aside), which works; nothing is repointed", async () => {
    const root = await tempDir();
    const config = demoConfig(path.join(root, "data"));
    await runSetup(config);
    // As left by TEAMMEM_STORE_REMOTE set to another store once.
    const other = path.join(root, "team.git");
    execFileSync("git", ["clone", "--quiet", "--bare", config.storeRemote, other]);
    cloneGit(config, "remote", "set-url", "origin", other);

    const error = await runSetup(config).then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    const message = (error as AppError).message;
    expect(message).toContain(`The store clone ${config.storeCloneDir} belongs to ${other}, not to ${config.storeRemote}`);
    expect(message).toContain(`move ${config.storeCloneDir} aside (mv ${config.storeCloneDir} ${config.storeCloneDir}.old)`);
    expect(message).toContain(`set TEAMMEM_STORE_REMOTE back to ${other}`);
    expect(cloneGit(config, "remote", "get-url", "origin")).toBe(other);

    await rename(config.storeCloneDir, `${config.storeCloneDir}.old`);
    expect(await runSetup(config)).toMatchObject({ createdStore: false });
    expect(cloneGit(config, "remote", "get-url", "origin")).toBe(config.storeRemote);
  }, 120_000);
});
