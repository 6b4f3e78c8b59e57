import { createHmac } from "node:crypto";
import type { Db } from "./client";
import { opensSealedContent, SEALED_CONTENT_PATTERN } from "./seal-secret-revisions";

const KEY_CHECK = "auth.secretCheck";
const KEY_CHECK_LABEL = "teammem instance secret check v1";

/**
 * Whether `secret` is the instance secret this database's content was sealed and signed with.
 * The database keeps a check of it (an HMAC of a fixed label, which tells nothing about the
 * secret); a database from before the check is judged by its sealed proposal content, if any.
 * "new": nothing in it depends on a secret yet.
 */
export async function compareSecretWithDatabase(db: Db, secret: string): Promise<"same" | "different" | "new"> {
  const recorded = await db.systemState.findUnique({ where: { key: KEY_CHECK } });
  if (recorded) return recorded.value === keyCheckOf(secret) ? "same" : "different";
  // Raw: the client's own reads would try to open the content with the secret it was made with.
  const sealed = await db.$queryRaw<{ content: string }[]>`SELECT "content" FROM "ProposalRevision" WHERE "content" LIKE ${SEALED_CONTENT_PATTERN} LIMIT 1`;
  if (sealed.length === 0) return "new";
  return (await opensSealedContent(sealed[0]!.content, secret)) ? "same" : "different";
}

/**
 * Records the check of `secret` unless one is there. Returns false when another instance
 * recorded a different secret first (two instances started at once with different secrets).
 */
export async function recordSecretCheck(db: Db, secret: string): Promise<boolean> {
  const value = keyCheckOf(secret);
  const recorded = await db.systemState.findUnique({ where: { key: KEY_CHECK } });
  if (recorded) return recorded.value === value;
  try {
    await db.systemState.create({ data: { key: KEY_CHECK, value } });
    return true;
  } catch (error) {
    const winner = await db.systemState.findUnique({ where: { key: KEY_CHECK } });
    if (!winner) throw error;
    return winner.value === value;
  }
}

function keyCheckOf(secret: string): string {
  return createHmac("sha256", secret).update(KEY_CHECK_LABEL).digest("hex");
}
