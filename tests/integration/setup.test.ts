import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { privateMemoryDir } from "@/lib/memdir/paths";
import { runSetup } from "@/lib/setup/run-setup";
import { listStoreProjects } from "@/lib/store/read-store";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", ...args], { cwd, encoding: "utf8" });
}

async function setupError(env: Record<string, string>): Promise<AppError> {
  try {
    await runSetup(loadConfig(env));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected setup to fail");
}

describe("npm start's setup step", () => {
  it("creates the database and store once, seeds the demo once, and keeps files added between runs", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const config = loadConfig({ TEAMMEM_DATA_DIR: dataDir });

    const first = await runSetup(config);
    expect(first).toMatchObject({ createdDataDir: true, createdDatabase: true, createdStore: true, seededDemo: true });
    // One admin and the demo lead and members, each with a one-time password shown once.
    expect(first.issuedCredentials.map((credential) => credential.email).sort()).toEqual(
      ["admin@teammem.local", "lena@acme.example", "omar@acme.example", "priya@acme.example"],
    );
    expect(new Set(first.issuedCredentials.map((credential) => credential.password)).size).toBe(4);
    const projects = await listStoreProjects(config);
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ id: "acme-checkout", memoryCount: 30 });
    expect(Object.values(projects[0]!.countsByType).filter((count) => count > 0).length).toBeGreaterThanOrEqual(3);

    // The demo member's home is laid out as Claude Code lays it out.
    const memoryDir = privateMemoryDir(config.claudeHome!, "/home/omar/src/acme-checkout");
    expect(memoryDir).toContain(path.join(".claude", "projects", "-home-omar-src-acme-checkout", "memory"));
    expect(existsSync(path.join(memoryDir, "MEMORY.md"))).toBe(true);
    expect(existsSync(path.join(memoryDir, "team", "MEMORY.md"))).toBe(true);

    // Between runs: a user's own file in the data folder, an edit to a private memory, and a
    // commit pushed to the store by someone else.
    await writeFile(path.join(dataDir, "notes.txt"), "mine\n");
    const privateIndex = path.join(memoryDir, "MEMORY.md");
    await writeFile(privateIndex, (await readFile(privateIndex, "utf8")) + "- [Extra](extra.md) — added by hand\n");
    const otherClone = path.join(await tempDir(), "other");
    git(path.dirname(otherClone), "clone", "-q", config.storeRemote, otherClone);
    await writeFile(path.join(otherClone, "projects", "acme-checkout", "feedback_added_later.md"), "---\nname: Later\ndescription: Added between runs\ntype: feedback\n---\nBody\n");
    git(otherClone, "add", "-A");
    git(otherClone, "commit", "-qm", "Add a memory between runs");
    git(otherClone, "push", "-q", "origin", "HEAD:main");
    const databaseBefore = await stat(config.sqliteFile!);

    const second = await runSetup(config);
    expect(second).toEqual({ createdDataDir: false, createdDatabase: false, createdStore: false, seededDemo: false, issuedCredentials: [] });
    expect(await readFile(path.join(dataDir, "notes.txt"), "utf8")).toBe("mine\n");
    expect(await readFile(privateIndex, "utf8")).toContain("added by hand");
    expect((await listStoreProjects(config))[0]!.memoryCount).toBe(31);
    expect((await stat(config.sqliteFile!)).ino).toBe(databaseBefore.ino);

    const db = createDb(config);
    try {
      expect(await db.user.count()).toBe(4);
      expect(await db.projectMember.count({ where: { projectId: "acme-checkout" } })).toBe(3);
      // Passwords are stored only as the library's hashes.
      const stored = (await db.account.findMany()).map((account) => account.password ?? "");
      for (const credential of first.issuedCredentials) expect(stored.join("\n")).not.toContain(credential.password);
      expect(await db.auditEvent.count({ where: { action: "demo.seeded" } })).toBe(1);
      // Write-ahead log: a reader never waits behind a writer (every recall writes its log row).
      expect(await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
    } finally {
      await db.$disconnect();
    }
  });

  it("stops with one sentence naming TEAMMEM_DATA_DIR when the data folder cannot be created", async () => {
    const file = path.join(await tempDir(), "a-file");
    await writeFile(file, "not a folder");
    const error = await setupError({ TEAMMEM_DATA_DIR: path.join(file, "data") });
    expect(error.code).toBe("DATA_DIR_UNAVAILABLE");
    expect(error.message).toMatch(/TEAMMEM_DATA_DIR/);
    expect(await readFile(file, "utf8")).toBe("not a folder");
  });

  it("stops naming TEAMMEM_DATA_DIR when the data folder path is a file", async () => {
    const file = path.join(await tempDir(), "data");
    await writeFile(file, "keep me");
    const error = await setupError({ TEAMMEM_DATA_DIR: file });
    expect(error.message).toMatch(/is not a folder.*TEAMMEM_DATA_DIR/);
    expect(await readFile(file, "utf8")).toBe("keep me");
  });

  it("stops naming TEAMMEM_STORE_REMOTE when the store does not exist", async () => {
    const dataDir = await tempDir();
    const error = await setupError({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_STORE_REMOTE: path.join(dataDir, "missing.git") });
    expect(error.code).toBe("STORE_UNAVAILABLE");
    expect(error.message).toMatch(/TEAMMEM_STORE_REMOTE/);
    expect(error.message.split(/\.\s/).length).toBeLessThanOrEqual(2);
  });

  it("never shows a password embedded in a store URL", async () => {
    const dataDir = await tempDir();
    const error = await setupError({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_STORE_REMOTE: "https://bob:hunter2-secret@127.0.0.1:9/none.git" });
    expect(error.message).not.toContain("hunter2-secret");
    expect(error.message).toMatch(/TEAMMEM_STORE_REMOTE/);
  });

  it("refuses a corrupt database file, names DATABASE_URL and leaves the file byte for byte", async () => {
    const dataDir = await tempDir();
    const garbage = Buffer.from("this is not a database\n".repeat(200));
    await writeFile(path.join(dataDir, "teammem.db"), garbage);
    const error = await setupError({ TEAMMEM_DATA_DIR: dataDir });
    expect(error.code).toBe("DATABASE_UNAVAILABLE");
    expect(error.message).toMatch(/not a SQLite database.*DATABASE_URL/);
    expect(Buffer.compare(await readFile(path.join(dataDir, "teammem.db")), garbage)).toBe(0);
    expect(existsSync(path.join(dataDir, "store.git"))).toBe(false); // stopped before touching anything else
  });

  it("refuses a data folder whose store.git is not a repository, without touching it", async () => {
    const dataDir = await tempDir();
    await writeFile(path.join(dataDir, "store.git"), "precious");
    const error = await setupError({ TEAMMEM_DATA_DIR: dataDir });
    expect(error.code).toBe("STORE_UNAVAILABLE");
    expect(await readFile(path.join(dataDir, "store.git"), "utf8")).toBe("precious");
  });
});
