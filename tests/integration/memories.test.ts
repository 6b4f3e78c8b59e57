import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/resolve-caller";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listMemories } from "@/lib/memories/list-memories";
import { readMemory } from "@/lib/memories/read-memory";
import { readMemoryIndex } from "@/lib/memories/read-memory-index";
import { repairPrivateIndex } from "@/lib/memories/repair-private-index";
import { runSetup } from "@/lib/setup/run-setup";
import { refreshStore } from "@/lib/store/read-store";
import { useTempDirs } from "../helpers/temp-dir";

/** The embedded demo (store, database, Omar's Claude home) in a temporary data folder. */
let config: Config;
let db: Db;
let root: string;
const callers: Record<"lena" | "omar" | "stranger" | "omarToken", Caller> = {} as never;
const DEMO_FOLDER = "-home-omar-src-acme-checkout";
const tempDir = useTempDirs();

beforeAll(async () => {
  root = await import("node:fs/promises").then((fs) => fs.mkdtemp(path.join(os.tmpdir(), "teammem-memories-")));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_INITIAL_PASSWORD: "memories-password-123" }, root);
  await runSetup(config);
  db = createDb(config);
  const caller = async (email: string): Promise<Caller> => {
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    return { userId: user.id, email, name: user.name, isAdmin: false, via: "session", tokenProjectIds: null };
  };
  callers.lena = await caller("lena@acme.example");
  callers.omar = await caller("omar@acme.example");
  callers.omarToken = { ...callers.omar, via: "token", tokenProjectIds: ["acme-checkout"] };
  callers.stranger = { userId: "nobody", email: "nobody@elsewhere.example", name: "Nobody", isAdmin: false, via: "session", tokenProjectIds: null };
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await import("node:fs/promises").then((fs) => fs.rm(root, { recursive: true, force: true }));
});

const team = { scope: "team" as const, projectId: "acme-checkout" };
const list = (caller: Caller, options: Partial<Parameters<typeof listMemories>[0]> = {}) =>
  listMemories({ config, db, caller, scope: "team", filters: {}, page: 1, ...options });

async function expectCode(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

/** A private project folder in the demo home with the given memory files. */
async function privateFolder(files: Record<string, string>): Promise<{ folder: string; memoryDir: string }> {
  const folder = `-tmp-repo-${Math.random().toString(36).slice(2, 10)}`;
  const memoryDir = path.join(config.claudeHome!, "projects", folder, "memory");
  await mkdir(memoryDir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(memoryDir, file)), { recursive: true });
    await writeFile(path.join(memoryDir, file), text);
  }
  return { folder, memoryDir };
}

describe("team memories from the store", () => {
  it("lists every memory of the project with age and findings, filtered, sorted and paged", async () => {
    const all = await list(callers.lena);
    expect(all.source).toEqual(team);
    expect(all.total).toBe(30);
    expect(all.memories).toHaveLength(25);
    expect(all.pageCount).toBe(2);
    expect(all.counts.byType.reference).toBe(8);
    expect(all.memories.every((memory, index, rows) => index === 0 || rows[index - 1]!.mtime >= memory.mtime)).toBe(true);

    const references = await list(callers.lena, { filters: { type: "reference" } });
    expect(references.matching).toBe(8);
    expect(references.memories.every((memory) => memory.type === "reference")).toBe(true);

    const old = await list(callers.lena, { filters: { age: "over-90", sort: "oldest" } });
    expect(old.matching).toBeGreaterThan(0);
    expect(old.memories.every((memory) => memory.ageDays >= 90 && memory.hasFreshnessWarning)).toBe(true);
    expect(old.memories[0]!.mtime <= old.memories.at(-1)!.mtime).toBe(true);

    const withFindings = await list(callers.lena, { filters: { finding: "any" } });
    expect(withFindings.matching).toBe(all.counts.withFindings);
    expect(withFindings.memories.every((memory) => memory.findings.length > 0)).toBe(true);
  });

  it("shows a file's commits newest first when they share a second, as git log does, across separate pushes too", async () => {
    const clone = path.join(await tempDir(), "clone");
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8", env: { ...process.env, GIT_AUTHOR_DATE: "2026-11-20T10:00:00Z", GIT_COMMITTER_DATE: "2026-11-20T10:00:00Z" } }).trim();
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    const file = path.join(clone, "projects", "acme-checkout", "project_same_second.md");
    const commitRevision = async (revision: number) => {
      await writeFile(file, `---\nname: Same second\ndescription: Revision ${revision}\ntype: project\n---\nRevision ${revision}.\n`);
      git("add", "-A");
      git("-c", "user.name=Outside", "-c", "user.email=outside@acme.example", "commit", "-qm", `Revision ${revision}`);
    };
    for (const revision of [1, 2, 3]) await commitRevision(revision);
    git("push", "-q", "origin", "HEAD:main");
    await refreshStore(config, { force: true });
    await readMemory({ config, db, caller: callers.lena, source: team, memoryPath: "project_same_second.md" }); // recorded: a sync of its own
    for (const revision of [4, 5]) await commitRevision(revision);
    git("push", "-q", "origin", "HEAD:main");
    await refreshStore(config, { force: true });
    const memory = await readMemory({ config, db, caller: callers.lena, source: team, memoryPath: "project_same_second.md" });
    expect(memory.history?.map((commit) => commit.subject)).toEqual(git("log", "--format=%s", "--", "projects/acme-checkout/project_same_second.md").split("\n"));
    expect(memory.history?.[0]?.subject).toBe("Revision 5");
    // Gone again, so the project's index stays as the other tests expect it.
    git("rm", "-q", "projects/acme-checkout/project_same_second.md");
    git("-c", "user.name=Outside", "-c", "user.email=outside@acme.example", "commit", "-qm", "Retire");
    git("push", "-q", "origin", "HEAD:main");
    await refreshStore(config, { force: true });
  });

  it("reads one memory with the agent's A3 header, its body, findings and store history", async () => {
    const memory = await readMemory({ config, db, caller: callers.lena, source: team, memoryPath: "feedback_real_db_in_tests.md" });
    expect(memory.name).toBe("Integration tests hit a real database");
    expect(memory.header).toMatch(/^This memory is \d+ days old\. .*\nMemory: memory\/team\/feedback_real_db_in_tests\.md:$/s);
    expect(memory.body).toContain("**Why:**");
    expect(memory.fields).toMatchObject({ type: "feedback" });
    expect(memory.history?.[0]).toMatchObject({ authorName: "Lena Park", subject: "Add feedback memory: Integration tests hit a real database" });
    // The store's time for a memory is its last commit's author time, as in the list.
    expect(memory.mtime.getTime()).toBe(memory.history![0]!.date.getTime());
  });

  it("rejects hostile paths, MEMORY.md and unknown files, and hides the project from outsiders", async () => {
    const read = (memoryPath: string, caller = callers.lena) => readMemory({ config, db, caller, source: team, memoryPath });
    for (const hostile of ["../teammem.json", "/etc/passwd.md", "a\0b.md", "%2e%2e/x.md", "a\\b.md", "C:/x.md"]) await expectCode(read(hostile), "INVALID_INPUT");
    await expectCode(read("MEMORY.md"), "INVALID_INPUT");
    await expectCode(read("no_such_memory.md"), "NOT_FOUND");
    await expectCode(read("feedback_real_db_in_tests.md", callers.stranger), "NOT_FOUND");
    await expectCode(list(callers.stranger, { projectId: "acme-checkout" }), "NOT_FOUND");
    expect((await list(callers.stranger)).source).toBeNull();
  });

  it("reports the team index but never offers to write it", async () => {
    const index = await readMemoryIndex({ config, db, caller: callers.lena, source: team });
    expect(index.canRepair).toBe(false);
    expect(index.report.links).toHaveLength(30);
    expect(index.report.dangling).toEqual([]);
    expect(index.report.orphans).toEqual([]);
    expect(index.displayPath).toBe("memory/team/MEMORY.md");
  });
});

describe("private memory under the Claude home", () => {
  it("is listed and read for its owner only, as a separate source", async () => {
    const mine = await list(callers.omar, { scope: "private" });
    expect(mine.sources.privateStatus).toBe("shown");
    expect(mine.source).toEqual({ scope: "private", folder: DEMO_FOLDER });
    expect(mine.total).toBeGreaterThan(0);
    const memory = await readMemory({ config, db, caller: callers.omar, source: { scope: "private", folder: DEMO_FOLDER }, memoryPath: mine.memories[0]!.path });
    expect(memory.history).toBeNull();
    expect(memory.header).toContain(path.join(config.claudeHome!, "projects", DEMO_FOLDER, "memory", mine.memories[0]!.path));

    expect((await list(callers.lena)).sources.privateStatus).toBe("not-owner");
    await expectCode(list(callers.lena, { scope: "private" }), "NOT_FOUND");
    await expectCode(list(callers.omarToken, { scope: "private" }), "NOT_FOUND");
    for (const folder of [DEMO_FOLDER, "..", "../..", "a/b", ""]) {
      await expectCode(readMemoryIndex({ config, db, caller: callers.lena, source: { scope: "private", folder } }), "NOT_FOUND");
    }
  });

  it("lists a private memory's name, description and findings masked exactly as its own page shows them", async () => {
    // Built from parts so no scanner flags this file; both are real-looking credentials.
    const githubToken = ["ghp_", "Zq7Lm2Vx9Rt4Kp8Wn3Yb6Hc1Jd5Fg0Se2Ua7"].join("");
    const awsKey = ["AKIA", "QX4RT7ZB2MN9PLK3"].join("");
    const file = "reference_private_creds.md";
    const { folder } = await privateFolder({ [file]: `---\nname: Private creds ${githubToken}\ndescription: private key ${awsKey}\ntype: reference\n---\nbody ${githubToken}\n` });
    const source = { scope: "private" as const, folder };
    const listed = await list(callers.omar, { scope: "private", folder });
    const page = await readMemory({ config, db, caller: callers.omar, source, memoryPath: file });
    const row = listed.memories.find((memory) => memory.path === file)!;
    expect(row.name).toBe(page.name);
    expect(row.description).toBe(page.description);
    expect(row.name).toMatch(/^Private creds \[REDACTED:[a-z0-9-]+ [^\]]*\]$/);
    expect(row.description).toMatch(/^private key \[REDACTED:[a-z0-9-]+ [^\]]*\]$/);
    const shown = JSON.stringify(listed);
    expect(shown).not.toContain(githubToken.slice(8));
    expect(shown).not.toContain(awsKey.slice(8));
    // The folder's MEMORY.md view offers to index it by name and description: masked there too.
    const index = JSON.stringify(await readMemoryIndex({ config, db, caller: callers.omar, source }));
    expect(index).toContain("Private creds [REDACTED:");
    expect(index).not.toContain(githubToken.slice(8));
    expect(index).not.toContain(awsKey.slice(8));
  });

  it("a private file named after a credential is listed only by its masked name with the finding to rename it, and its page is refused", async () => {
    const token = ["ghs_", "Zq7Lm2Vx9Rt4Kp8Wn3Yb6Hc1Jd5Fg0Se2Ua7"].join("");
    const file = `reference_ci_${token}.md`;
    const { folder } = await privateFolder({ [file]: "---\nname: CI app\ndescription: the CI app's installation\ntype: reference\n---\nbody\n", "ok.md": "---\nname: ok\ndescription: fine\ntype: user\n---\nhi\n" });
    const listed = await list(callers.omar, { scope: "private", folder });
    expect(listed.memories.map((memory) => memory.path)).toEqual(["ok.md"]);
    expect(listed.otherFindings).toContainEqual(expect.objectContaining({ rule: "secret", file: expect.stringMatching(/^reference_ci_\[REDACTED:/) }));
    expect(JSON.stringify(listed)).not.toContain(token.slice(4, 20));
    const page = await expectCode(readMemory({ config, db, caller: callers.omar, source: { scope: "private", folder }, memoryPath: file }), "INVALID_INPUT");
    expect(page.message).toMatch(/name holds what looks like a credential/);
    // The folder's MEMORY.md page names it as an orphan, in its findings and in the repair it offers: masked there too.
    const index = await readMemoryIndex({ config, db, caller: callers.omar, source: { scope: "private", folder } });
    expect(index.report.orphans.map((memory) => memory.path)).toContainEqual(expect.stringMatching(/^reference_ci_\[REDACTED:/));
    expect(JSON.stringify(index)).not.toContain(token.slice(4, 20));
  });

  it("never follows a symlink out of the memory directory", async () => {
    const outside = await tempDir();
    await writeFile(path.join(outside, "secret.md"), "---\nname: secret\n---\nnot yours\n");
    const { folder, memoryDir } = await privateFolder({ "ok.md": "---\nname: ok\ndescription: a fine memory about deploys\ntype: user\n---\nhi\n" });
    await symlink(path.join(outside, "secret.md"), path.join(memoryDir, "link.md"));
    await symlink(outside, path.join(memoryDir, "linked-folder"));
    const source = { scope: "private" as const, folder };
    await expectCode(readMemory({ config, db, caller: callers.omar, source, memoryPath: "link.md" }), "NOT_FOUND");
    await expectCode(readMemory({ config, db, caller: callers.omar, source, memoryPath: "linked-folder/secret.md" }), "NOT_FOUND");
    const listed = await list(callers.omar, { scope: "private", folder });
    expect(listed.memories.map((memory) => memory.path)).toEqual(["ok.md"]);
    expect(listed.otherFindings.map((finding) => finding.rule)).toContain("symlink-escape");
  });

  it("I4: shows the repair as a diff, then the owner applies exactly that repair, atomically", async () => {
    const index = "# Index\n- [Kept](kept.md) — stays\n- [Gone](gone.md) — the file was deleted\n";
    const { folder, memoryDir } = await privateFolder({
      "MEMORY.md": index,
      "kept.md": "---\nname: Kept\ndescription: a memory that is listed in the index\ntype: user\n---\n",
      "new.md": "---\nname: New\ndescription: a memory Claude Code forgot to index\ntype: user\n---\n",
    });
    const source = { scope: "private" as const, folder };
    const view = await readMemoryIndex({ config, db, caller: callers.omar, source });
    expect(view.canRepair).toBe(true);
    expect(view.report.findings.map((finding) => finding.rule).sort()).toEqual(["index-dangling", "index-orphan"]);
    expect(view.diff.filter((line) => line.kind === "removed" || line.kind === "added")).toEqual([
      { kind: "removed", line: 3, text: "- [Gone](gone.md) — the file was deleted" },
      { kind: "added", line: null, text: "- [New](new.md) — a memory Claude Code forgot to index" },
    ]);

    await expectCode(repairPrivateIndex({ config, caller: callers.lena, folder, expectedHash: view.beforeHash }), "NOT_FOUND");
    await expectCode(repairPrivateIndex({ config, caller: callers.omarToken, folder, expectedHash: view.beforeHash }), "NOT_FOUND");
    await expectCode(repairPrivateIndex({ config, caller: callers.omar, folder, expectedHash: "0".repeat(64) }), "CONFLICT");
    expect(await readFile(path.join(memoryDir, "MEMORY.md"), "utf8")).toBe(index);

    const repair = await repairPrivateIndex({ config, caller: callers.omar, folder, expectedHash: view.beforeHash });
    expect(repair).toMatchObject({ removed: ["gone.md"], added: ["new.md"], isChanged: true });
    expect(await readFile(path.join(memoryDir, "MEMORY.md"), "utf8")).toBe(repair.after);
    expect((await readdir(memoryDir)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
    const after = await readMemoryIndex({ config, db, caller: callers.omar, source });
    expect(after.report.findings).toEqual([]);
    expect(after.repair.isChanged).toBe(false);
  });

  it("I4: a repair answers with the index masked, and writes the real names to MEMORY.md", async () => {
    const githubToken = ["ghp_", "Zq7Lm2Vx9Rt4Kp8Wn3Yb6Hc1Jd5Fg0Se2Ua7"].join("");
    const { folder, memoryDir } = await privateFolder({
      "MEMORY.md": "# Index\n",
      "reference_ci.md": `---\nname: CI token ${githubToken}\ndescription: the CI bot's token is ${githubToken}\ntype: reference\n---\n`,
    });
    const source = { scope: "private" as const, folder };
    const view = await readMemoryIndex({ config, db, caller: callers.omar, source });
    const repair = await repairPrivateIndex({ config, caller: callers.omar, folder, expectedHash: view.beforeHash });
    expect(repair.added).toEqual(["reference_ci.md"]);
    expect(repair.after).toContain("[CI token [REDACTED:");
    expect(JSON.stringify(repair)).not.toContain(githubToken.slice(8));
    expect(await readFile(path.join(memoryDir, "MEMORY.md"), "utf8")).toContain(`[CI token ${githubToken}](reference_ci.md)`);
  });
});
