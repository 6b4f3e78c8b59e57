import { loadConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { setLogLevel } from "@/lib/log";

let config: Config | null = null;

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
