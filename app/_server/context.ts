import { createAuth, type Auth } from "@/lib/auth/auth";
import { readAuthSecret } from "@/lib/auth/auth-secret";
import { loadConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { setLogLevel } from "@/lib/log";

let config: Config | null = null;
let auth: Promise<Auth> | null = null;

/** Configuration for this server process, read and validated once. */
export function getConfig(): Config {
  if (!config) {
    config = loadConfig();
    setLogLevel(config.logLevel);
  }
  return config;
}

export function getDatabase(): Db {
  return getDb(getConfig());
}

/** The better-auth instance; its secret comes from the environment or the data folder. */
export function getAuth(): Promise<Auth> {
  auth ??= (async () => {
    const secret = await readAuthSecret(getConfig());
    if (!secret) throw new AppError("CONFIG_INVALID", "No session secret yet: start teammem with `npm start`, or set TEAMMEM_AUTH_SECRET.");
    return createAuth({ config: getConfig(), db: getDatabase(), secret });
  })();
  auth.catch(() => (auth = null)); // retry on the next request instead of caching a failure
  return auth;
}
