import { generateRandomString } from "better-auth/crypto";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findNameProblem } from "../find-name-problem";
import { assertNoSecret } from "../secrets/assert-no-secret";
import { hashApiToken, parseProjectIds, TOKEN_PREFIX_LENGTH } from "./api-token-format";
import { listVisibleProjectIds } from "./permissions";
import type { Caller } from "./resolve-caller";

export type ApiTokenSummary = {
  id: string;
  name: string;
  prefix: string;
  projectIds: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

export type CreateApiTokenOptions = { name: string; projectIds: string[]; expiresInDays?: number | null };

/** Creates a token for the caller; the plain token is returned once and never stored. */
export async function createApiToken(db: Db, caller: Caller, options: CreateApiTokenOptions): Promise<{ token: string; summary: ApiTokenSummary }> {
  if (caller.via === "token") throw new AppError("FORBIDDEN", "API tokens cannot create tokens; sign in to the dashboard.");
  const visible = await listVisibleProjectIds(db, caller);
  const outside = options.projectIds.filter((projectId) => !visible.includes(projectId));
  if (outside.length > 0) {
    // An archived project is left out of token scopes: say so, not that the caller has no role.
    const archived = new Set((await listVisibleProjectIds(db, caller, { includeArchived: true })).filter((projectId) => outside.includes(projectId)));
    const noRole = outside.filter((projectId) => !archived.has(projectId));
    const reasons = [
      ...(archived.size > 0 ? [`Archived, so left out of tokens: ${[...archived].join(", ")} (unarchive it on its settings page first).`] : []),
      ...(noRole.length > 0 ? [`You have no role in: ${noRole.join(", ")}.`] : []),
    ];
    throw new AppError("INVALID_INPUT", reasons.join(" "), { details: { field: "projectIds" } });
  }
  if (options.projectIds.length === 0) throw new AppError("INVALID_INPUT", "Choose at least one project for the token.");
  assertNoSecret(options.name, "name");
  const nameProblem = findNameProblem(options.name);
  if (nameProblem) throw new AppError("INVALID_INPUT", `name: ${nameProblem}.`, { details: { field: "name" } });

  const token = `tm_${generateRandomString(40, "a-z", "A-Z", "0-9")}`;
  const record = await db.apiToken.create({
    data: {
      userId: caller.userId,
      name: options.name,
      prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
      hash: hashApiToken(token),
      projectIds: JSON.stringify([...new Set(options.projectIds)]),
      expiresAt: options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 86_400_000) : null,
    },
  });
  return { token, summary: toSummary(record) };
}

export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenSummary[]> {
  const records = await db.apiToken.findMany({ where: { userId }, orderBy: { createdAt: "desc" } });
  return records.map(toSummary);
}

/** Revokes one of the caller's own tokens (kept, marked revoked, for the audit). */
export async function revokeApiToken(db: Db, caller: Caller, tokenId: string): Promise<ApiTokenSummary> {
  const record = await db.apiToken.findFirst({ where: { id: tokenId, userId: caller.userId } });
  if (!record) throw new AppError("NOT_FOUND", "No such token among yours.");
  const updated = record.revokedAt ? record : await db.apiToken.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
  return toSummary(updated);
}

function toSummary(record: { id: string; name: string; prefix: string; projectIds: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null; revokedAt: Date | null }): ApiTokenSummary {
  return { id: record.id, name: record.name, prefix: record.prefix, projectIds: parseProjectIds(record.projectIds), createdAt: record.createdAt, lastUsedAt: record.lastUsedAt, expiresAt: record.expiresAt, revokedAt: record.revokedAt };
}
