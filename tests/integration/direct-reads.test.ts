import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, revokeApiToken } from "@/lib/auth/manage-api-tokens";
import { setProjectRole } from "@/lib/auth/manage-users";
import { assertProjectPermission } from "@/lib/auth/permissions";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { demoClaudeHome, loadConfig, type Config } from "@/lib/config";
import { createDb, directReadsOf, type Db } from "@/lib/db/client";
import { readRecordedCommit, READ_MODEL_COMMIT_KEY } from "@/lib/read-model/sync-read-model";
import { runSetup } from "@/lib/setup/run-setup";
import { getProposal } from "@/lib/review/get-proposal";
import { findProposalOrThrow, loadPeople } from "@/lib/review/proposal-records";
import { submitProposal } from "@/lib/review/submit-proposal";
import { readStaleDoubtsOf } from "@/lib/stale/read-stale-doubts";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

/**
 * The reads every request makes (token, role, the read model's commit) and recall's stale
 * doubts go to the database driver, not through Prisma (lib/db/direct-reads.ts). They must see
 * every write Prisma commits at once, read dates as the instants Prisma wrote, and fail with a
 * clear error: on both databases, PostgreSQL when CI provides one.
 */
const kinds = [{ kind: "sqlite" as const, enabled: true }, { kind: "postgresql" as const, enabled: TEST_POSTGRES_URL !== null }];
const noAuth = null as never; // tokens need no auth library

describe.each(kinds)("reads on the driver, $kind", ({ kind, enabled }) => {
  let root = "";
  let config: Config;
  let db: Db;
  let dropDatabase: (() => Promise<void>) | null = null;
  let lena: Caller;
  const previousTimeZone = process.env.TZ;

  beforeAll(async () => {
    if (!enabled) return;
    // West of UTC: a UTC timestamp read as local time would look hours later than it is.
    process.env.TZ = "America/Los_Angeles";
    root = await mkdtemp(path.join(os.tmpdir(), `teammem-direct-reads-${kind}-`));
    const database = kind === "postgresql" ? await createTestDatabase() : null;
    dropDatabase = database?.drop ?? null;
    const dataDir = path.join(root, "data");
    const demo = { TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: demoClaudeHome(dataDir), TEAMMEM_CLAUDE_HOME_OWNER: "omar@acme.example" };
    config = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_INITIAL_PASSWORD: "direct-reads-password-1", ...demo, ...(database ? { DATABASE_URL: database.url } : {}) }, root);
    await runSetup(config);
    db = createDb(config);
    const user = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
    lena = { userId: user.id, email: user.email, name: user.name, isAdmin: false, via: "session", tokenProjectIds: null };
  }, 120_000);

  afterAll(async () => {
    process.env.TZ = previousTimeZone;
    if (!enabled) return;
    await db?.$disconnect();
    await dropDatabase?.();
    await rm(root, { recursive: true, force: true });
  });

  const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });

  it.runIf(enabled)("a token resolves to its user and scope, and stops working the moment Prisma revokes it", async () => {
    const { token, summary } = await createApiToken(db, lena, { name: "laptop", projectIds: ["acme-checkout"] });
    const caller = await resolveCaller(noAuth, db, bearer(token));
    expect(caller).toEqual({ userId: lena.userId, email: "lena@acme.example", name: lena.name, isAdmin: false, via: "token", tokenProjectIds: ["acme-checkout"] });

    await revokeApiToken(db, lena, summary.id);
    await expect(resolveCaller(noAuth, db, bearer(token))).rejects.toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("revoked") });
  });

  it.runIf(enabled)("expiry is judged on the instant Prisma wrote, whatever the server's time zone", async () => {
    const expired = await createApiToken(db, lena, { name: "expired", projectIds: ["acme-checkout"] });
    const valid = await createApiToken(db, lena, { name: "valid", projectIds: ["acme-checkout"] });
    const now = Date.now();
    await db.apiToken.update({ where: { id: expired.summary.id }, data: { expiresAt: new Date(now - 60 * 60_000) } });
    await db.apiToken.update({ where: { id: valid.summary.id }, data: { expiresAt: new Date(now + 2 * 60 * 60_000) } });

    await expect(resolveCaller(noAuth, db, bearer(expired.token))).rejects.toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("expired") });
    await expect(resolveCaller(noAuth, db, bearer(valid.token))).resolves.toMatchObject({ userId: lena.userId });
  });

  it.runIf(enabled)("a role changed through Prisma holds on the next request; an admin flag reads as a boolean", async () => {
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    const caller: Caller = { userId: omar.id, email: omar.email, name: omar.name, isAdmin: false, via: "session", tokenProjectIds: null };
    await expect(assertProjectPermission(db, caller, "acme-checkout", "propose")).resolves.toBe("member");
    await setProjectRole(db, { projectId: "acme-checkout", email: "omar@acme.example", role: "viewer" });
    await expect(assertProjectPermission(db, caller, "acme-checkout", "propose")).rejects.toMatchObject({ code: "FORBIDDEN" });
    await setProjectRole(db, { projectId: "acme-checkout", email: "omar@acme.example", role: "member" });
    await expect(assertProjectPermission(db, caller, "no-such-project", "read")).rejects.toMatchObject({ code: "NOT_FOUND" });

    const admin = await db.user.findUniqueOrThrow({ where: { email: config.adminEmail } });
    const { token } = await createApiToken(db, { userId: admin.id, email: admin.email, name: admin.name, isAdmin: true, via: "session", tokenProjectIds: null }, { name: "admin", projectIds: ["acme-checkout"] });
    expect((await resolveCaller(noAuth, db, bearer(token)))?.isAdmin).toBe(true);
  });

  it.runIf(enabled)("the read model's commit and the stale doubts are what Prisma last wrote", async () => {
    const before = await readRecordedCommit(db);
    expect(before).toMatch(/^[0-9a-f]{40}$/);
    await db.systemState.update({ where: { key: READ_MODEL_COMMIT_KEY }, data: { value: "f".repeat(40) } });
    expect(await readRecordedCommit(db)).toBe("f".repeat(40));
    await db.systemState.update({ where: { key: READ_MODEL_COMMIT_KEY }, data: { value: before! } });

    const [first, second] = await db.storeMemory.findMany({ where: { projectId: "acme-checkout" }, orderBy: { path: "asc" }, take: 2 });
    const signals = JSON.stringify({ signals: [{ kind: "old", message: "Last changed 400 days ago." }, { kind: "missing-path", message: "`src/gone.ts` is not in the repository." }] });
    await db.storeMemory.update({ where: { projectId_path: { projectId: "acme-checkout", path: first!.path } }, data: { freshState: "stale", freshSignals: signals } });
    await db.storeMemory.update({ where: { projectId_path: { projectId: "acme-checkout", path: second!.path } }, data: { freshState: "fresh", freshSignals: signals } });

    const doubts = await readStaleDoubtsOf(db, "acme-checkout", [first!.path, second!.path, first!.path, "no-such-file.md"]);
    expect([...doubts.keys()]).toEqual([first!.path]);
    expect(doubts.get(first!.path)).toEqual(["src/gone.ts is not in the repository.", "Last changed 400 days ago."]);
    expect(await readStaleDoubtsOf(db, "acme-checkout", [])).toEqual(new Map());
  });

  it.runIf(enabled)("a proposal, its people and its history read as Prisma reads them, a sealed revision opened", async () => {
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    const password = ["Zq8", "vR2pL7xW", "k3"].join("-");
    const secret = `---\nname: Staging DB\ndescription: How to reach the staging database\ntype: reference\n---\npostgres://app:${password}@db.internal:5432/app\n`;
    const submitted = await submitProposal(config, db, { projectId: "acme-checkout", path: "reference_direct_reads_sealed.md", content: secret, source: "member", proposerId: omar.id });
    const sealed = await db.$queryRawUnsafe<{ content: string }[]>(`SELECT "content" FROM "ProposalRevision" WHERE "proposalId" = '${submitted.id}'`);
    expect(sealed[0]!.content.startsWith("sealed:")).toBe(true); // as the database holds it

    const direct = await findProposalOrThrow(db, submitted.id);
    const throughPrisma = await db.$transaction((tx) => findProposalOrThrow(tx, submitted.id)); // a transaction's reads stay in Prisma
    expect(direct).toEqual(throughPrisma);
    expect(direct.content).toBe(secret);
    expect(direct.proposal.createdAt.getTime()).toBe((await db.proposal.findUniqueOrThrow({ where: { id: submitted.id } })).createdAt.getTime());

    const detail = await getProposal(config, db, submitted.id);
    expect(detail.revisions.map((revision) => revision.revision)).toEqual([1]);
    expect(detail.events.map((event) => event.toState)).toEqual((await db.proposalEvent.findMany({ where: { proposalId: submitted.id }, orderBy: [{ at: "asc" }, { id: "asc" }] })).map((event) => event.toState));
    expect(detail.proposer).toMatchObject({ id: omar.id, name: omar.name });
    expect(detail.proposerRole).toBe("member");
    expect(await loadPeople(db, [omar.id, "no-such-user"])).toEqual(new Map([[omar.id, { id: omar.id, name: omar.name, email: omar.email }], ["no-such-user", { id: "no-such-user", name: "(removed user)", email: "" }]]));
    await expect(findProposalOrThrow(db, "no-such-proposal")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("reads on the driver are reads", () => {
  it("refuses a statement that writes on the SQLite reader, and the row stays", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "teammem-direct-reads-writes-"));
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_INITIAL_PASSWORD: "direct-reads-password-1" }, root);
    await runSetup(config);
    const db = createDb(config);
    try {
      await expect(directReadsOf(db).one(`DELETE FROM "SystemState" WHERE "key" = ?`, [READ_MODEL_COMMIT_KEY])).rejects.toThrow(/return rows only/);
      expect(await readRecordedCommit(db)).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await db.$disconnect();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("reads on the driver when the database is gone", () => {
  it("answer DATABASE_UNAVAILABLE naming what to check, never the driver's text or a password", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "teammem-direct-reads-gone-"));
    try {
      const sqlite = createDb(loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "nothing-here") }, root));
      const error = await resolveCaller(noAuth, sqlite, bearer40()).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "DATABASE_UNAVAILABLE", message: expect.stringContaining("SQLite file") });
      await sqlite.$disconnect();
      if (TEST_POSTGRES_URL) {
        const url = new URL(TEST_POSTGRES_URL);
        url.pathname = "/teammem_no_such_database";
        url.password = "hunter2-not-in-messages";
        const postgres = createDb(loadConfig({ DATABASE_URL: url.toString(), TEAMMEM_DATA_DIR: path.join(root, "pg") }, root));
        const pgError = await resolveCaller(noAuth, postgres, bearer40()).catch((caught: unknown) => caught);
        expect(pgError).toMatchObject({ code: "DATABASE_UNAVAILABLE", message: expect.stringContaining("PostgreSQL server") });
        expect(String((pgError as Error).message)).not.toContain("hunter2");
        await postgres.$disconnect();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

function bearer40(): Headers {
  return new Headers({ authorization: `Bearer tm_${"a".repeat(40)}` });
}
