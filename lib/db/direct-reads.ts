import Database from "better-sqlite3";
import pg from "pg";
import type { Config } from "../config";
import { databaseUnavailable } from "./database-unavailable";

/**
 * The few reads every API request makes (its token, its role, the read model's commit), the
 * stale doubts of a recall, and an approval's reads of its proposal, people and lease, run on the
 * database driver with statements prepared once. Through
 * Prisma each such read cost ~1 ms of the server's one thread (its query compiler and
 * interpreter run on every call); the statement itself takes ~10 µs on SQLite
 * (docs/benchmarks.md, "Reads on the database driver"). Reads only: every write, and every
 * read inside a transaction, stays in Prisma, which owns the schema and its migrations.
 *
 * SQL is written once for both databases: double-quoted identifiers and `?` placeholders
 * (numbered for PostgreSQL here). Values come back as each driver gives them; callers turn
 * dates and booleans into their types (`asDate`, `asBoolean`).
 */
export type DirectReads = {
  one<Row>(sql: string, params: readonly unknown[]): Promise<Row | undefined>;
  all<Row>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
};

type DatabaseConfig = Pick<Config, "databaseKind" | "databaseUrl" | "sqliteFile">;

export function openDirectReads(config: DatabaseConfig): DirectReads {
  return config.databaseKind === "postgresql" ? postgresReads(config) : sqliteReads(config);
}

/** A date column: SQLite holds ISO text, PostgreSQL's driver gives a Date. */
export function asDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value as string | number);
}

/** A boolean column: SQLite holds 0 or 1. */
export function asBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

/** A programming error, not an unavailable database: said as it is. */
class NotAReadError extends Error {
  constructor(sql: string) {
    super(`direct reads run queries that return rows only: ${sql.slice(0, 60)}`);
  }
}

// Statements differ only by the number of values in an `IN (…)`: a few dozen at most.
const STATEMENT_CACHE_SIZE = 200;

function sqliteReads(config: DatabaseConfig): DirectReads {
  // better-sqlite3 opens a temporary database for an empty name: never that.
  const file = config.sqliteFile;
  if (!file) throw new TypeError("direct reads on SQLite need the database file (config.sqliteFile)");
  let connection: Database.Database | null = null;
  const statements = new Map<string, Database.Statement>();
  const statementOf = (sql: string): Database.Statement => {
    // Opened on first use: the file may not exist until setup has migrated it.
    connection ??= new Database(file, { fileMustExist: true, timeout: 5_000 });
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      // This connection is a reader beside Prisma's: a write here would bypass the one writer.
      if (!statement.reader) throw new NotAReadError(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value ?? "");
    }
    return statement;
  };
  const run = <Result>(read: () => Result): Promise<Result> => {
    try {
      return Promise.resolve(read());
    } catch (error) {
      return Promise.reject(error instanceof NotAReadError ? error : databaseUnavailable(config, error));
    }
  };
  return {
    one: <Row>(sql: string, params: readonly unknown[]) => run(() => statementOf(sql).get(...params) as Row | undefined),
    all: <Row>(sql: string, params: readonly unknown[]) => run(() => statementOf(sql).all(...params) as Row[]),
    async close() {
      statements.clear();
      connection?.close();
      connection = null;
    },
  };
}

// Prisma writes DateTime as UTC into `timestamp(3)` (no time zone); pg would read it as local time.
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_WITHOUT_TIME_ZONE ? (text: string) => new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

function postgresReads(config: DatabaseConfig): DirectReads {
  let pool: pg.Pool | null = null;
  const names = new Map<string, { name: string; text: string }>();
  const poolOf = (): pg.Pool => {
    if (!pool) {
      // Small and idle-closing: Prisma keeps its own pool for everything else.
      pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, idleTimeoutMillis: 5_000, allowExitOnIdle: true, types });
      // An idle connection closed by the server (a restart, a dropped test database) must not crash the process.
      pool.on("error", () => undefined);
    }
    return pool;
  };
  // Named statements are parsed and planned once per connection.
  const statementOf = (sql: string) => {
    let statement = names.get(sql);
    if (!statement) {
      let number = 0;
      statement = { name: `teammem_read_${names.size + 1}`, text: sql.replace(/\?/g, () => `$${++number}`) };
      if (names.size < STATEMENT_CACHE_SIZE) names.set(sql, statement);
      else statement = { name: "", text: statement.text };
    }
    return statement;
  };
  const query = async <Row>(sql: string, params: readonly unknown[]): Promise<Row[]> => {
    const statement = statementOf(sql);
    try {
      const result = await poolOf().query(statement.name ? { ...statement, values: [...params] } : { text: statement.text, values: [...params] });
      return result.rows as Row[];
    } catch (error) {
      throw databaseUnavailable(config, error);
    }
  };
  return {
    one: async <Row>(sql: string, params: readonly unknown[]) => (await query<Row>(sql, params))[0],
    all: query,
    async close() {
      const closing = pool;
      pool = null;
      await closing?.end();
    },
  };
}
