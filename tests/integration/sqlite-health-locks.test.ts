import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { diagnose } from "@/lib/setup/diagnose";
import { runSetup } from "@/lib/setup/run-setup";

// The server's health check runs in the process that holds the live SQLite database open. If it
// opens and closes the database file itself, the process loses SQLite's POSIX locks on it, and
// the next program to open the file (a second `npm start`, sqlite3) takes it for unused and
// deletes the write-ahead log the server still writes to: every write after that was lost.
let root: string;
let config: Config;
let db: Db;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-health-locks-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "off", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await rm(root, { recursive: true, force: true });
});

// The sqlite3 shell is installed by .ci/run; this machine's Node binding closes without the check that deletes the log.
describe.skipIf(!hasSqliteShell())("the health check beside a live SQLite database", () => {
  it("leaves the server's locks alone: another program opening the file after a health check deletes no write-ahead log, and no write is lost", async () => {
    const before = await db.auditEvent.count();
    await db.auditEvent.create({ data: { action: "test.before", actor: "test" } });
    expect((await diagnose(config)).find((check) => check.name === "database")?.status).toBe("ok");

    // Another program opens the database and closes it: the sqlite3 shell, as a person checking it would.
    expect(execFileSync("sqlite3", [config.sqliteFile!, "select count(*) > 0 from User"], { encoding: "utf8" }).trim()).toBe("1");
    expect(existsSync(`${config.sqliteFile}-wal`)).toBe(true);

    await db.auditEvent.create({ data: { action: "test.after", actor: "test" } });
    await db.$disconnect();
    db = createDb(config);
    expect(await db.auditEvent.count()).toBe(before + 2);
  });
});

function hasSqliteShell(): boolean {
  try {
    execFileSync("sqlite3", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
