import { directReadsOf, type Db } from "../db/client";
import { asBoolean, asDate } from "../db/direct-reads";
import { AppError } from "../errors";
import type { Auth } from "./auth";
import { hashApiToken, parseProjectIds, TOKEN_PATTERN } from "./api-token-format";

export type Caller = {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
  via: "session" | "token";
  /** For a token: the projects it is scoped to; null for a session (all the user's projects). */
  tokenProjectIds: string[] | null;
};

// Writing last-used on every request would turn every read into a write.
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who is calling: a bearer API token (CLI, agents) or a session cookie (dashboard). Returns
 * null when neither is present; throws UNAUTHORIZED for a malformed, unknown, revoked or expired
 * token, with a reason and never the token itself.
 */
export async function resolveCaller(auth: Auth, db: Db, headers: Headers): Promise<Caller | null> {
  const authorization = headers.get("authorization");
  if (authorization !== null) return resolveToken(db, authorization);

  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { isAdmin?: boolean };
  return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin === true, via: "session", tokenProjectIds: null };
}

async function resolveToken(db: Db, authorization: string): Promise<Caller> {
  // The scheme is case-insensitive (RFC 9110 §11.1): `bearer tm_…` is the same header.
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  if (!match || !TOKEN_PATTERN.test(match[1]!)) {
    throw new AppError("UNAUTHORIZED", "Malformed Authorization header: expected `Bearer tm_…` with a teammem API token.");
  }
  const record = await findApiToken(db, hashApiToken(match[1]!));
  if (!record) throw new AppError("UNAUTHORIZED", "Unknown API token: create one on the Settings page.");
  if (record.revokedAt) throw new AppError("UNAUTHORIZED", "This API token was revoked: create a new one on the Settings page.");
  const now = new Date();
  if (record.expiresAt && record.expiresAt <= now) throw new AppError("UNAUTHORIZED", "This API token has expired: create a new one on the Settings page.");

  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: record.id }, data: { lastUsedAt: now } });
  }
  return {
    userId: record.user.id,
    email: record.user.email,
    name: record.user.name,
    isAdmin: record.user.isAdmin,
    via: "token",
    tokenProjectIds: parseProjectIds(record.projectIds),
  };
}

type TokenRow = { id: string; projectIds: string; lastUsedAt: unknown; expiresAt: unknown; revokedAt: unknown; userId: string; email: string; name: string; isAdmin: unknown };

// Every token-authenticated request makes this read: on the driver (lib/db/direct-reads.ts).
async function findApiToken(db: Db, hash: string) {
  const row = await directReadsOf(db).one<TokenRow>(
    `SELECT t."id", t."projectIds", t."lastUsedAt", t."expiresAt", t."revokedAt", u."id" AS "userId", u."email", u."name", u."isAdmin"
     FROM "ApiToken" t JOIN "User" u ON u."id" = t."userId" WHERE t."hash" = ?`,
    [hash],
  );
  if (!row) return null;
  return {
    id: row.id,
    projectIds: row.projectIds,
    lastUsedAt: asDate(row.lastUsedAt),
    expiresAt: asDate(row.expiresAt),
    revokedAt: asDate(row.revokedAt),
    user: { id: row.userId, email: row.email, name: row.name, isAdmin: asBoolean(row.isAdmin) },
  };
}
