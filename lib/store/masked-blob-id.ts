import { createHmac } from "node:crypto";
import type { Config } from "../config";
import { readAuthSecretSync } from "../auth/auth-secret";
import { AppError } from "../errors";
import { listBlobsOf } from "./git";
import { MAIN } from "./read-store";
import { projectDir } from "./store-manifest";

/**
 * The id every answer gives a version of a file that holds a secret, in place of its git blob
 * id. A blob id is the SHA-1 (or SHA-256) of the unmasked text, and the masked text shows all but
 * the secret, with its length: anyone who may read the file could guess a short password offline
 * until the id matches. This id is a keyed hash of the blob id (the instance secret is the key),
 * as long as a blob id, the same for the same version (a member's sync compares them), and means
 * nothing without the key. A proposal may send it back as its base: `resolveMaskedBlobId`.
 */
export function maskedBlobId(config: Pick<Config, "authSecret" | "dataDir">, blob: string): string {
  return createHmac("sha256", instanceKey(config)).update(`teammem masked blob ${blob}`).digest("hex").slice(0, blob.length);
}

/**
 * The version of `path` whose masked id is `id`, or null: the file's blob ids in the store's
 * history (one `git log`), each hashed with the key. Only asked when an id names no version
 * itself, so only for files that held a secret.
 */
export async function resolveMaskedBlobId(config: Config, projectId: string, path: string, id: string): Promise<string | null> {
  const blobs = await listBlobsOf(config.storeCloneDir, MAIN, `${projectDir(projectId)}/${path}`);
  return blobs.find((blob) => maskedBlobId(config, blob) === id) ?? null;
}

// Read once per data folder: a full listing names every masked file of a project.
const keys = new Map<string, string>();

function instanceKey(config: Pick<Config, "authSecret" | "dataDir">): string {
  if (config.authSecret) return config.authSecret;
  const known = keys.get(config.dataDir);
  if (known) return known;
  const key = readAuthSecretSync(config);
  if (!key) throw new AppError("CONFIG_INVALID", "The instance secret is missing (TEAMMEM_AUTH_SECRET or the data folder's auth-secret); run setup first.");
  keys.set(config.dataDir, key);
  return key;
}
