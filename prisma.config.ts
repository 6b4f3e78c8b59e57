import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { loadConfig } from "./lib/config";

// One switch, shared with the app through lib/config.ts: DATABASE_URL. Unset -> the SQLite file in
// the data folder; postgres(ql)://... -> PostgreSQL with its own schema file and migrations.
const config = loadConfig();
const isPg = config.databaseKind === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js", // WASM schema engine + driver adapter: no engine download, works offline
  schema: isPg ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: isPg ? "prisma/postgres/migrations" : "prisma/migrations" },
  async adapter() {
    return isPg ? pgForCli(config.databaseUrl) : betterSqliteForCli(`file:${config.sqliteFile}`);
  },
});

// SQLite: Prisma 6.19's JS schema engine replays migrations onto the shadow database with
// executeRaw(), which better-sqlite3 runs through prepare(): one statement only. Every
// multi-statement migration (any SQLite "RedefineTables") then fails with P3006. On the shadow
// connection only, send parameterless multi-statement SQL to executeScript().
function betterSqliteForCli(dbUrl: string) {
  const factory = new PrismaBetterSQLite3({ url: dbUrl });
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const shadow = await connectToShadowDb();
    const executeRaw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (query) => {
      const sql = query.sql.replace(/--.*$/gm, "").trim();
      if (query.args.length === 0 && /;\s*\S/.test(sql)) {
        await shadow.executeScript(query.sql);
        return 0;
      }
      return executeRaw(query);
    };
    return shadow;
  };
  return factory;
}

// PostgreSQL (@prisma/adapter-pg 6.19.3), three CLI-only fixes; the app uses a plain PrismaPg.
// 1. Discrete pool fields, not { connectionString }: the adapter builds the shadow pool as
//    { ...config, database: shadow } and node-postgres lets connectionString win over database,
//    so the "shadow" would be the main database. allowExitOnIdle stops a ~10 s idle at exit.
// 2. Catalog types such as `name` (OID 19) have no mapping in the adapter and break the schema
//    engine's introspection; report them as text.
// 3. The adapter drops the shadow database before closing its pool ("being accessed by other
//    users"); close first, then DROP ... WITH (FORCE). The role needs CREATEDB.
function pgPoolConfig(dbUrl: string) {
  const url = new URL(dbUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.replace(/^\//, ""),
    allowExitOnIdle: true,
  };
}

const PG_CATALOG_AS_TEXT: Record<number, number> = {
  18: 25, 19: 25, 24: 25, 194: 25, 2205: 25, 1002: 1009, 1003: 1009,
};
type PgIO = { performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }> };

function mapCatalogTypes<T extends object>(adapter: T): T {
  const io = adapter as unknown as PgIO; // performIO is private in the .d.ts
  const performIO = io.performIO.bind(io);
  io.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result?.fields ?? []) {
      field.dataTypeID = PG_CATALOG_AS_TEXT[field.dataTypeID] ?? field.dataTypeID;
    }
    return result;
  };
  return adapter;
}

function pgForCli(dbUrl: string) {
  const poolConfig = pgPoolConfig(dbUrl);
  const factory = new PrismaPg(poolConfig);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => mapCatalogTypes(await connect());
  factory.connectToShadowDb = async () => {
    const name = `prisma_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
    const admin = await connect();
    await admin.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = mapCatalogTypes(await new PrismaPg({ ...poolConfig, database: name }).connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.dispose();
    };
    return shadow;
  };
  return factory;
}
