import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { runSetup } from "@/lib/setup/run-setup";
import { diagnose } from "@/lib/setup/diagnose";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

// CI always provides PostgreSQL (.ci/run); a developer without one sees this suite skipped.
describe.skipIf(!TEST_POSTGRES_URL)("npm start's setup step on PostgreSQL", () => {
  it("applies the PostgreSQL migrations, seeds the demo team once, and the doctor is happy", async () => {
    const database = await createTestDatabase();
    try {
      const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), DATABASE_URL: database.url, TEAMMEM_DEMO: "on" });
      expect(config.databaseKind).toBe("postgresql");

      expect((await runSetup(config)).seededDemo).toBe(true);
      expect((await runSetup(config)).seededDemo).toBe(false);

      const db = createDb(config);
      try {
        expect(await db.project.findMany({ select: { id: true } })).toEqual([{ id: "acme-checkout" }]);
        expect(await db.user.count()).toBe(4);
      } finally {
        await db.$disconnect();
      }
      const checks = await diagnose(config);
      expect(checks.find((check) => check.name === "database")).toMatchObject({ status: "ok" });
    } finally {
      await database.drop();
    }
  });

  it("names DATABASE_URL when the PostgreSQL server cannot be reached", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: await tempDir(), DATABASE_URL: "postgresql://nobody:pw@127.0.0.1:1/none" });
    await expect(runSetup(config)).rejects.toThrow(/nothing answers at the host and port in DATABASE_URL/);
  });

  it("says which part of DATABASE_URL the server refused, without echoing the password", async () => {
    const url = new URL(TEST_POSTGRES_URL!);
    const variants: [string, RegExp][] = [
      [Object.assign(new URL(url), { password: "not-the-password-4711" }).toString(), /refused the user name or password in DATABASE_URL/],
      [Object.assign(new URL(url), { pathname: "/teammem_no_such_database" }).toString(), /the database named in DATABASE_URL does not exist/],
    ];
    for (const [databaseUrl, expected] of variants) {
      const error = await runSetup(loadConfig({ TEAMMEM_DATA_DIR: await tempDir(), DATABASE_URL: databaseUrl })).then(() => null, (caught: unknown) => caught as Error);
      expect(error?.message).toMatch(expected);
      expect(error?.message).not.toContain("not-the-password-4711");
    }
  });
});
