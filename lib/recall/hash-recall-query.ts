import { createHash, createHmac } from "node:crypto";
import { readAuthSecretSync } from "../auth/read-auth-secret-file";
import type { Config } from "../config";

// One key per process and data folder: the secret file is read once, not at every recall.
const keys = new Map<string, Buffer>();

/**
 * The recall log keeps a query only as this hash, keyed with the instance secret (HMAC-SHA-256):
 * a plain SHA-256 let anyone who reads the log confirm a guessed prompt ("is the deploy password
 * X?"), since the same words always gave the same hash. Equal queries still hash alike on one
 * installation, so a lead can tell a repeated prompt.
 */
export function hashRecallQuery(config: Pick<Config, "authSecret" | "dataDir">, query: string): string {
  let key = keys.get(config.dataDir);
  if (!key) {
    // Derived, not the secret itself: the log's key is of no use for sessions or sealing.
    key = createHash("sha256").update(`teammem recall log\0${readAuthSecretSync(config) ?? ""}`, "utf8").digest();
    keys.set(config.dataDir, key);
  }
  return createHmac("sha256", key).update(query, "utf8").digest("hex");
}
