import { writeFile } from "node:fs/promises";
import { generateRandomString } from "better-auth/crypto";
import type { Config } from "../config";
import { AppError } from "../errors";
import { authSecretPath, MIN_AUTH_SECRET_LENGTH, readAuthSecretFile } from "./read-auth-secret-file";

// The database client reads the secret through read-auth-secret-file.ts.
export { readAuthSecretSync } from "./read-auth-secret-file";

/**
 * The secret that signs sessions: TEAMMEM_AUTH_SECRET when set (required when several instances
 * share a database), else one generated on first start and kept in the data folder (mode 0600).
 * An auth-secret file that is there but unusable stops start-up: the server could sign nobody in.
 */
export async function ensureAuthSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = await readAuthSecretFile(config.dataDir);
  if (file.state === "ok") return file.secret;
  if (file.state === "invalid") throw unusableSecretFile(config, file.problem);
  const secret = generateRandomString(64);
  // "wx" fails if another process created it meanwhile; then theirs wins.
  await writeFile(authSecretPath(config.dataDir), secret + "\n", { mode: 0o600, flag: "wx" }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return (await readAuthSecret(config)) ?? secret;
}

/** Reads the secret kept in the data folder without creating it (the server reads, setup writes). */
export async function readAuthSecret(config: Config): Promise<string | null> {
  if (config.authSecret) return config.authSecret;
  const file = await readAuthSecretFile(config.dataDir);
  return file.state === "ok" ? file.secret : null;
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
