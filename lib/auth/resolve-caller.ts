import type { Db } from "../db/client";
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
  const match = /^Bearer (\S+)$/.exec(authorization.trim());
  if (!match || !TOKEN_PATTERN.test(match[1]!)) {
    throw new AppError("UNAUTHORIZED", "Malformed Authorization header: expected `Bearer tm_…` with a teammem API token.");
  }
  const record = await db.apiToken.findUnique({ where: { hash: hashApiToken(match[1]!) }, include: { user: true } });
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
