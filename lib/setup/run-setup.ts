import { createAuth, type Auth } from "../auth/auth";
import { ensureAuthSecret } from "../auth/auth-secret";
import { maskCredentialsInAccountNames } from "../auth/mask-credentials-in-names";
import { ensureAdminAccount, type IssuedCredential } from "../auth/ensure-admin-account";
import { demoClaudeHome, type Config } from "../config";
import { createDb, type Db } from "../db/client";
import { databaseUnavailable } from "../db/database-unavailable";
import { applyMigrations } from "../db/migrate";
import { seedDemoDatabase } from "../demo/seed-demo-database";
import { seedDemoHome } from "../demo/seed-demo-home";
import { seedDemoProposals } from "../demo/seed-demo-proposals";
import { readRecordedCommit } from "../read-model/sync-read-model";
import { reconcileCommits } from "../review/reconcile-commits";
import { seedDemoStore } from "../demo/seed-demo-store";
import { ensureStore } from "../store/ensure-store";
import { checkSqliteFile } from "./check-sqlite-file";
import { ensureDataDir } from "./ensure-data-dir";

export type SetupReport = {
  createdDataDir: boolean;
  createdDatabase: boolean;
  createdStore: boolean;
  seededDemo: boolean;
  /** Accounts created by this run with their one-time passwords: show once, never log. */
  issuedCredentials: IssuedCredential[];
};

const DEMO_SEEDED_KEY = "demo.seededAt";

/**
 * What `npm start` does before serving: data folder, database (migrations), team store and its
 * clone, and the demo team once. Safe to run any number of times: it only ever adds what is
 * missing and stops with one clear sentence when something it needs is unusable.
 */
export async function runSetup(config: Config, now: Date = new Date()): Promise<SetupReport> {
  const { created: createdDataDir } = await ensureDataDir(config.dataDir);
  const createdDatabase = config.sqliteFile ? !(await checkSqliteFile(config.sqliteFile)).exists : false;
  await applyMigrations(config);

  const secret = await ensureAuthSecret(config); // before the database client: it seals with it
  const db = createDb(config);
  try {
    // The store after the database: only the commit the read model records can tell a new store
    // from one that lost its history (docs/store.md, "When the store's history is missing").
    const recordedCommit = await readRecordedCommit(db).catch((cause: unknown) => {
      throw databaseUnavailable(config, cause);
    });
    const { createdStore } = await ensureStore(config, { recordedCommit });
    const auth = createAuth({ config, db, secret });
    const admin = await ensureAdminAccount(auth, db, config).catch((cause: unknown) => {
      throw databaseUnavailable(config, cause);
    });
    const demo = config.isDemoEnabled ? await seedDemoOnce(config, auth, db, now) : null;
    await maskCredentialsInAccountNames(db);
    // A crash between a push and its database update is settled here, exactly once.
    await reconcileCommits(config, db);
    return {
      createdDataDir,
      createdDatabase,
      createdStore,
      seededDemo: demo !== null,
      issuedCredentials: [...(admin ? [admin] : []), ...(demo ?? [])],
    };
  } finally {
    await db.$disconnect();
  }
}

// The demo is seeded once per installation: deleting demo memories later must not bring them back.
async function seedDemoOnce(config: Config, auth: Auth, db: Db, now: Date): Promise<IssuedCredential[] | null> {
  const seeded = await db.systemState.findUnique({ where: { key: DEMO_SEEDED_KEY } }).catch((cause: unknown) => {
    throw databaseUnavailable(config, cause);
  });
  if (seeded) return null;

  const seededStore = await seedDemoStore(config, now);
  if (config.claudeHome === demoClaudeHome(config.dataDir)) await seedDemoHome(config.claudeHome, now);
  const issued = await seedDemoDatabase(auth, db, config.initialPassword);
  if (seededStore) await seedDemoProposals(config, db);
  await db.$transaction([
    db.systemState.create({ data: { key: DEMO_SEEDED_KEY, value: now.toISOString() } }),
    db.auditEvent.create({
      data: { actor: "teammem", action: "demo.seeded", detail: JSON.stringify({ store: seededStore }) },
    }),
  ]);
  return issued;
}
