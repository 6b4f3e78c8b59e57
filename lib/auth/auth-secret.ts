import { writeFile } from "node:fs/promises";
import { generateRandomString } from "better-auth/crypto";
import type { Config } from "../config";
import { createDb } from "../db/client";
import { databaseUnavailable } from "../db/database-unavailable";
import { compareSecretWithDatabase, recordSecretCheck } from "../db/instance-secret-check";
import { AppError } from "../errors";
import { authSecretPath, MIN_AUTH_SECRET_LENGTH, readAuthSecretFile } from "./read-auth-secret-file";

// The database client reads the secret through read-auth-secret-file.ts (this file needs the client).
export { readAuthSecretSync } from "./read-auth-secret-file";

export type Candidate = { secret: string; source: "env" | "file" | "generated" };

/**
 * The secret that signs sessions and seals proposal content: TEAMMEM_AUTH_SECRET when set
 * (required when several instances share a database), else the one kept in the data folder
 * (mode 0600), generated on first start. Refuses a secret other than the one the database's
 * content was sealed and signed with, and an unusable auth-secret file: a replaced secret would
 * make every sealed proposal unreadable, and nothing in the data folder is overwritten to "recover".
 */
export async function ensureAuthSecret(config: Config): Promise<string> {
  const candidate = await candidateSecret(config);
  const outcome = await settleWithDatabase(config, candidate);
  // Another process wrote the file meanwhile: theirs wins, checked like any other.
  return outcome === "lost-race" ? ensureAuthSecret(config) : candidate.secret;
}

/** Reads the secret kept in the data folder without creating it (the server reads, setup writes). */
export async function readAuthSecret(config: Config): Promise<string | null> {
  if (config.authSecret) return config.authSecret;
  const file = await readAuthSecretFile(config.dataDir);
  return file.state === "ok" ? file.secret : null;
}

async function candidateSecret(config: Config): Promise<Candidate> {
  if (config.authSecret) return { secret: config.authSecret, source: "env" };
  const file = await readAuthSecretFile(config.dataDir);
  if (file.state === "ok") return { secret: file.secret, source: "file" };
  if (file.state === "missing") return { secret: generateRandomString(64), source: "generated" };
  throw unusableSecretFile(config, file.problem);
}

async function settleWithDatabase(config: Config, candidate: Candidate): Promise<"ok" | "lost-race"> {
  const db = createDb({ ...config, authSecret: candidate.secret });
  const orUnavailable = (cause: unknown) => {
    throw databaseUnavailable(config, cause);
  };
  try {
    const fit = await compareSecretWithDatabase(db, candidate.secret).catch(orUnavailable);
    if (fit === "different") throw secretMismatch(config, candidate);
    if (candidate.source === "generated" && !(await writeNewSecretFile(config, candidate.secret))) return "lost-race";
    if (!(await recordSecretCheck(db, candidate.secret).catch(orUnavailable))) throw secretMismatch(config, candidate);
    return "ok";
  } finally {
    await db.$disconnect();
  }
}

// "wx" fails if another process created it meanwhile; false then.
async function writeNewSecretFile(config: Config, secret: string): Promise<boolean> {
  try {
    await writeFile(authSecretPath(config.dataDir), secret + "\n", { mode: 0o600, flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Why the data folder's auth-secret cannot be used, and what to do: for start-up and `teammem doctor`. */
export function unusableSecretFile(config: Pick<Config, "dataDir">, problem: string): AppError {
  const file = authSecretPath(config.dataDir);
  return new AppError(
    "CONFIG_INVALID",
    `The instance secret file ${file} ${problem}; it must hold a secret of at least ${MIN_AUTH_SECRET_LENGTH} characters: ` +
      "restore it from a backup of the data folder, or set TEAMMEM_AUTH_SECRET (on a new installation, delete the file and teammem generates one).",
    { details: { variable: "TEAMMEM_AUTH_SECRET", file } },
  );
}

/** Why this secret is refused for this database, and how to restore the right one. */
export function secretMismatch(config: Pick<Config, "dataDir">, candidate: Pick<Candidate, "source">): AppError {
  const file = authSecretPath(config.dataDir);
  const keep = "teammem will not start with another secret: the sealed proposals could never be opened again, nor the sessions checked.";
  const message = {
    env:
      "TEAMMEM_AUTH_SECRET is not the instance secret this database's content was sealed and signed with: " +
      `set the same TEAMMEM_AUTH_SECRET on every instance of this server (the one the others use, or the one in the original data folder's auth-secret). ${keep}`,
    file:
      `The instance secret in ${file} is not the one this database's content was sealed and signed with: ` +
      `restore auth-secret from a backup of the data folder, or set TEAMMEM_AUTH_SECRET to the secret the other instances use. ${keep}`,
    generated:
      `The instance secret file ${file} is missing, but this database holds content sealed and signed with an instance secret: ` +
      `restore auth-secret from a backup of the data folder, or set TEAMMEM_AUTH_SECRET to that secret. ${keep}`,
  }[candidate.source];
  return new AppError("CONFIG_INVALID", message, { details: { variable: "TEAMMEM_AUTH_SECRET", file } });
}
