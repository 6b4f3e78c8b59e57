import { Prisma } from "../../generated/prisma/client";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { flushRecallLog } from "../recall/recall-log";
import type { RecallSummary } from "./overview-types";

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS_SHOWN = 30;
const LIST_LENGTH = 5;

type Dialect = Config["databaseKind"];

/**
 * Recall over the last 30 days from the RecallEvent log, counted by the database: calls per day,
 * the memories selected most often, and the memories no recall selected. `selected` is a JSON
 * array of file names, so the per-memory counts unnest it in SQL (json_each in SQLite,
 * json_array_elements_text in PostgreSQL) instead of reading the log row by row. Only what agents
 * were given counts: a lead's tries on the Recall page (source "playground") gave no agent anything.
 */
export async function summarizeRecall(db: Db, dialect: Dialect, projectId: string, now: Date): Promise<RecallSummary> {
  const days = lastDays(now, DAYS_SHOWN);
  const since = new Date(`${days[0]}T00:00:00.000Z`);
  await flushRecallLog(db);
  const [perDay, most, notRecalled, notRecalledCount] = await Promise.all([
    db.$queryRaw<{ day: string; calls: number | bigint }[]>(Prisma.sql`
      SELECT ${dayOf(dialect)} AS day, COUNT(*) AS calls FROM "RecallEvent"
      WHERE "projectId" = ${projectId} AND "source" = 'agent' AND "at" >= ${since} GROUP BY 1`),
    db.$queryRaw<{ path: string; name: string | null; count: number | bigint }[]>(Prisma.sql`
      WITH selections AS (${selectedPaths(dialect, projectId, since)})
      SELECT s.path AS path, m."name" AS name, COUNT(*) AS count FROM selections s
      LEFT JOIN "StoreMemory" m ON m."projectId" = ${projectId} AND m."path" = s.path
      GROUP BY s.path, m."name" ORDER BY COUNT(*) DESC, s.path ASC LIMIT ${LIST_LENGTH}`),
    db.$queryRaw<{ path: string; name: string | null; changedAt: Date | string }[]>(Prisma.sql`
      SELECT m."path" AS path, m."name" AS name, m."changedAt" AS "changedAt" FROM "StoreMemory" m
      WHERE m."projectId" = ${projectId} AND m."path" NOT IN (${selectedPaths(dialect, projectId, since)})
      ORDER BY m."changedAt" ASC, m."path" ASC LIMIT ${LIST_LENGTH}`),
    db.$queryRaw<{ count: number | bigint }[]>(Prisma.sql`
      SELECT COUNT(*) AS count FROM "StoreMemory" m
      WHERE m."projectId" = ${projectId} AND m."path" NOT IN (${selectedPaths(dialect, projectId, since)})`),
  ]);
  const callsByDay = new Map(perDay.map((row) => [String(row.day), Number(row.calls)]));
  const callsPerDay = days.map((day) => ({ day, calls: callsByDay.get(day) ?? 0 }));
  return {
    callsPerDay,
    callsLast30Days: callsPerDay.reduce((sum, day) => sum + day.calls, 0),
    mostRecalled: most.map((row) => ({ path: row.path, name: row.name, count: Number(row.count) })),
    notRecalledCount: Number(notRecalledCount[0]?.count ?? 0),
    notRecalled: notRecalled.map((row) => ({ path: row.path, name: row.name, changedAt: new Date(row.changedAt).toISOString() })),
  };
}

/** The last `count` UTC days as YYYY-MM-DD, oldest first, today last. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, index) => new Date(today - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10));
}

// SQLite keeps DateTime as ISO-8601 text (the adapter's default), so the day is its first ten characters.
function dayOf(dialect: Dialect): Prisma.Sql {
  return dialect === "postgresql" ? Prisma.sql`to_char("at", 'YYYY-MM-DD')` : Prisma.sql`substr("at", 1, 10)`;
}

/** One row per (recall, selected file) since `since`, as a column named `path`. */
function selectedPaths(dialect: Dialect, projectId: string, since: Date): Prisma.Sql {
  if (dialect === "postgresql") {
    return Prisma.sql`SELECT j.value AS path FROM "RecallEvent" e CROSS JOIN LATERAL json_array_elements_text(e."selected"::json) AS j(value)
      WHERE e."projectId" = ${projectId} AND e."source" = 'agent' AND e."at" >= ${since}`;
  }
  // A malformed row must not fail the whole page: json_each would throw on it.
  return Prisma.sql`SELECT j.value AS path FROM "RecallEvent" e, json_each(CASE WHEN json_valid(e."selected") THEN e."selected" ELSE '[]' END) j
    WHERE e."projectId" = ${projectId} AND e."source" = 'agent' AND e."at" >= ${since}`;
}
