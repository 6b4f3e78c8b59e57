import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateRandomString } from "better-auth/crypto";
import type { Config } from "../config";

const SECRET_FILE = "auth-secret";

/**
 * The secret that signs sessions: TEAMMEM_AUTH_SECRET when set (required when several instances
 * share a database), else one generated on first start and kept in the data folder (mode 0600).
 */
export async function ensureAuthSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing) return existing;
  const secret = generateRandomString(64);
  // "wx" fails if another process created it meanwhile; then theirs wins.
  await writeFile(file, secret + "\n", { mode: 0o600, flag: "wx" }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return (await readSecretFile(file)) ?? secret;
}

/** Reads the secret kept in the data folder without creating it (the server reads, setup writes). */
export async function readAuthSecret(config: Config): Promise<string | null> {
  return config.authSecret ?? (await readSecretFile(path.join(config.dataDir, SECRET_FILE)));
}

async function readSecretFile(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, "utf8")).trim();
    return text.length >= 32 ? text : null;
  } catch {
    return null; // missing: the caller creates it (setup) or reports it
  }
}

/** The same, synchronously: the database client needs it when it is created. */
export function readAuthSecretSync(config: Pick<Config, "authSecret" | "dataDir">): string | null {
  if (config.authSecret) return config.authSecret;
  try {
    const text = readFileSync(path.join(config.dataDir, SECRET_FILE), "utf8").trim();
    return text.length >= 32 ? text : null;
  } catch {
    return null; // not created yet: setup creates it before anything needs sealing
  }
}
