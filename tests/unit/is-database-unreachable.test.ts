import { describe, expect, it } from "vitest";
import { errorResponse } from "@/app/_server/http";
import { isDatabaseUnreachable } from "@/lib/db/is-database-unreachable";

// The shapes PostgreSQL's abrupt stop gave through Prisma 6 with its pg adapter (seen on this
// machine with `pg_ctlcluster … stop -m immediate` during transactions), and their relatives.
const prismaNotReachable = Object.assign(new Error("Invalid `db.user.count()` invocation"), {
  name: "PrismaClientKnownRequestError",
  code: "P1001",
  meta: { modelName: "User", driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 } } },
});
const pgTerminated = new Error("Connection terminated unexpectedly");
const adminShutdown = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
const wrapped = new Error("transaction failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) });

describe("a database that went away mid-request", () => {
  it.each([
    ["Prisma's P1001 (driver adapter: DatabaseNotReachable)", prismaNotReachable],
    ["pg's terminated connection", pgTerminated],
    ["PostgreSQL's administrator shutdown (57P01)", adminShutdown],
    ["a refused connection inside a cause chain", wrapped],
  ])("%s is answered 503 DATABASE_UNAVAILABLE, saying a change may have landed", async (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
    const answer = errorResponse(error, "test");
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ error: { code: "DATABASE_UNAVAILABLE", message: expect.stringContaining("a change may have landed") } });
  });

  it("a bug or a refused query stays a 500", async () => {
    const uniqueViolation = Object.assign(new Error("Unique constraint failed"), { name: "PrismaClientKnownRequestError", code: "P2002" });
    for (const error of [new TypeError("x is undefined"), uniqueViolation]) {
      expect(isDatabaseUnreachable(error)).toBe(false);
      expect(errorResponse(error, "test").status).toBe(500);
    }
  });
});
