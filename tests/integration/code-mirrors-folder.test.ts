import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { updateProject } from "@/lib/projects/update-project";
import { runSetup } from "@/lib/setup/run-setup";
import { checkProjectFreshnessNow } from "@/lib/stale/load-project-freshness";
import { refreshProjectFreshness } from "@/lib/stale/refresh-project-freshness";

let root: string;
let config: Config;
let db: Db;
let codeRepo: string;
let codeHead: string;
const PROJECT = "acme-checkout";
const LEAD = { userId: "", name: "Lena Lead", email: "lena@acme.example" };

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" } }).trim();
}

/** The structured log lines written while `work` runs. */
async function captureLog(work: () => Promise<unknown>): Promise<{ event: string; level: string; folder?: string; message?: string }[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((line) => line.split("\n")).filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { event: string; level: string });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-code-mirrors-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  LEAD.userId = (await db.user.findUniqueOrThrow({ where: { email: LEAD.email } })).id;
  codeRepo = path.join(root, "code");
  await mkdir(path.join(codeRepo, "src"), { recursive: true });
  git(root, "init", "-q", "--initial-branch=main", codeRepo);
  await writeFile(path.join(codeRepo, "src/a.ts"), "export const a = 1;\n");
  git(codeRepo, "add", "-A");
  git(codeRepo, "commit", "-q", "-m", "first");
  codeHead = git(codeRepo, "rev-parse", "HEAD");
  await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { codeRepo } });
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the data folder's code-mirrors", () => {
  it("when it is a file, every check names that folder and what to do (not the healthy repository), the log says it once, and a repaired folder is used at once", async () => {
    const folder = path.join(config.dataDir, "code-mirrors");
    await rm(folder, { recursive: true, force: true });
    await writeFile(folder, "x\n");

    const events = await captureLog(async () => {
      const forced = await checkProjectFreshnessNow(config, db, PROJECT);
      expect(forced.codeCommit).toBeNull();
      expect(forced.codeRepoProblem).toBe(`${folder} (in the data folder) is not a folder, so no code repository can be copied to this server: move that file away or delete it, and the next check creates the folder. The code repository itself was not tried.`);
      // A page read (no waiting for git) says the same, not "still being copied" or "could not be read".
      const pageRead = await refreshProjectFreshness(config, db, PROJECT, { waitForCode: false });
      expect(pageRead.codeRepoProblem).toBe(forced.codeRepoProblem);
    });
    const folderEvents = events.filter((event) => event.event === "code_repo.mirrors_folder_unusable");
    expect(folderEvents).toHaveLength(1);
    expect(folderEvents[0]).toMatchObject({ level: "error", folder });

    await rm(folder);
    const repaired = await checkProjectFreshnessNow(config, db, PROJECT);
    expect(repaired).toMatchObject({ codeCommit: codeHead, codeRepoProblem: null });
  });
});
