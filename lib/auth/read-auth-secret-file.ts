import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";

/** README: TEAMMEM_AUTH_SECRET (and the file that stands in for it) holds at least 32 characters. */
export const MIN_AUTH_SECRET_LENGTH = 32;

/** What the data folder's auth-secret holds: a usable secret, nothing yet, or something unusable (why). */
export type AuthSecretFile = { state: "ok"; secret: string } | { state: "missing" } | { state: "invalid"; problem: string };

export function authSecretPath(dataDir: string): string {
  return path.join(dataDir, "auth-secret");
}

export async function readAuthSecretFile(dataDir: string): Promise<AuthSecretFile> {
  try {
    return judge(await readFile(authSecretPath(dataDir), "utf8"));
  } catch (error) {
    return readFailure(error);
  }
}

export function readAuthSecretFileSync(dataDir: string): AuthSecretFile {
  try {
    return judge(readFileSync(authSecretPath(dataDir), "utf8"));
  } catch (error) {
    return readFailure(error);
  }
}

/** The secret in use (TEAMMEM_AUTH_SECRET, else a usable auth-secret file), or null: for the database client. */
export function readAuthSecretSync(config: Pick<Config, "authSecret" | "dataDir">): string | null {
  if (config.authSecret) return config.authSecret;
  const file = readAuthSecretFileSync(config.dataDir);
  return file.state === "ok" ? file.secret : null;
}

function judge(text: string): AuthSecretFile {
  const secret = text.trim();
  if (secret.length === 0) return { state: "invalid", problem: "is empty" };
  if (secret.length < MIN_AUTH_SECRET_LENGTH) return { state: "invalid", problem: `holds ${secret.length} characters, fewer than ${MIN_AUTH_SECRET_LENGTH}` };
  return { state: "ok", secret };
}

function readFailure(error: unknown): AuthSecretFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return { state: "missing" };
  if (code === "EISDIR") return { state: "invalid", problem: "is a folder, not a file" };
  if (code === "EACCES" || code === "EPERM") return { state: "invalid", problem: "cannot be read by this user" };
  return { state: "invalid", problem: `cannot be read (${code ?? "unknown error"})` };
}
