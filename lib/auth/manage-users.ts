import { generateRandomString } from "better-auth/crypto";
import * as z from "zod/mini";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findNameProblem } from "../find-name-problem";
import { assertNoSecret } from "../secrets/assert-no-secret";
import { findFormatTokensInName } from "../secrets/find-format-tokens";
import type { Auth } from "./auth";
import { isProjectRole, type ProjectRole } from "./permissions";

// zod's mini build: the CLI bundles this file (cli-compiled.test.ts).
const NEW_ACCOUNT_EMAIL = z.email().check(z.maxLength(320));

export type NewAccount = { email: string; name: string; isAdmin?: boolean; password?: string | null };

/** A one-time password for a new or reset account: shown once, changed by the user. */
export function generateOneTimePassword(): string {
  return generateRandomString(20, "a-z", "A-Z", "0-9");
}

/**
 * Creates an account with an email + password sign-in, hashed by better-auth. Returns the
 * password (generated unless given) so the caller can show it once.
 */
export async function createAccount(auth: Auth, db: Db, account: NewAccount): Promise<{ userId: string; password: string }> {
  const email = account.email.trim().toLowerCase();
  // The rules of POST /api/admin/users, so `teammem users create` cannot make an account the API would refuse.
  if (!NEW_ACCOUNT_EMAIL.safeParse(email).success) throw new AppError("INVALID_INPUT", "email: give an email address, such as ann@example.com.", { details: { field: "email" } });
  if (account.name.trim().length === 0 || account.name.trim().length > 100) throw new AppError("INVALID_INPUT", "name: give the person's name (1 to 100 characters).", { details: { field: "name" } });
  assertNoSecret(account.name, "name");
  const nameProblem = findNameProblem(account.name.trim());
  if (nameProblem) throw new AppError("INVALID_INPUT", `name: ${nameProblem}.`, { details: { field: "name" } });
  // Shown on every page that names the person; a provider's token form is no one's address.
  const token = findFormatTokensInName(email)[0];
  if (token) throw new AppError("INVALID_INPUT", `email: it has the form of a credential (${token.kind}); give the person's address.`, { details: { field: "email" } });
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError("CONFLICT", `An account for ${email} already exists.`);
  }
  const password = account.password ?? generateOneTimePassword();
  const context = await auth.$context;
  const user = await context.internalAdapter.createUser({ email, name: account.name.trim(), isAdmin: account.isAdmin === true }, { method: "admin" });
  await context.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: await context.password.hash(password) });
  return { userId: user.id, password };
}

/** Sets a new one-time password and signs the account out everywhere. */
export async function resetPassword(auth: Auth, db: Db, email: string, password?: string | null): Promise<string> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw new AppError("NOT_FOUND", `There is no account for ${email}.`);
  const next = password ?? generateOneTimePassword();
  const context = await auth.$context;
  await context.internalAdapter.updatePassword(user.id, await context.password.hash(next));
  await db.session.deleteMany({ where: { userId: user.id } });
  return next;
}

/** Gives a user a role in a project (or changes it). */
export async function setProjectRole(db: Db, options: { projectId: string; email: string; role: ProjectRole }): Promise<void> {
  if (!isProjectRole(options.role)) throw new AppError("INVALID_INPUT", "role must be lead, member or viewer.");
  const user = await db.user.findUnique({ where: { email: options.email.trim().toLowerCase() } });
  if (!user) throw new AppError("NOT_FOUND", `There is no account for ${options.email}; an admin creates it first.`);
  await db.$transaction(async (tx) => {
    if (options.role !== "lead") await assertAnotherLead(tx, options.projectId, user.id);
    await tx.projectMember.upsert({
      where: { projectId_userId: { projectId: options.projectId, userId: user.id } },
      create: { projectId: options.projectId, userId: user.id, role: options.role },
      update: { role: options.role },
    });
  });
}

export async function removeFromProject(db: Db, options: { projectId: string; userId: string }): Promise<void> {
  await db.$transaction(async (tx) => {
    await assertAnotherLead(tx, options.projectId, options.userId);
    const deleted = await tx.projectMember.deleteMany({ where: { projectId: options.projectId, userId: options.userId } });
    if (deleted.count === 0) throw new AppError("NOT_FOUND", "That person has no role in this project.");
  });
}

/**
 * A project keeps a lead: without one nobody may review, and its queue stalls until an admin
 * steps in. Refuses to demote or remove the last one.
 */
export async function assertAnotherLead(tx: Pick<Db, "projectMember">, projectId: string, userId: string): Promise<void> {
  const leads = await tx.projectMember.findMany({ where: { projectId, role: "lead" }, select: { userId: true } });
  if (leads.length === 1 && leads[0]!.userId === userId) throw new AppError("CONFLICT", "This is the project's only lead: make someone else a lead first, so proposals can still be reviewed.");
}

export type Membership = { projectId: string; projectName: string; role: ProjectRole };

/** The caller's roles (and, for a token, only within its scope). */
export async function listMemberships(db: Db, caller: { userId: string; tokenProjectIds: string[] | null }): Promise<Membership[]> {
  // Archived projects leave every list and picker (Settings, Review, Recall, whoami).
  const rows = await db.projectMember.findMany({ where: { userId: caller.userId, project: { archivedAt: null } }, include: { project: true }, orderBy: { projectId: "asc" } });
  return rows
    .filter((row) => isProjectRole(row.role) && (!caller.tokenProjectIds || caller.tokenProjectIds.includes(row.projectId)))
    .map((row) => ({ projectId: row.projectId, projectName: row.project.name, role: row.role as ProjectRole }));
}

export type ProjectMemberSummary = { userId: string; email: string; name: string; role: ProjectRole };

export async function listProjectMembers(db: Db, projectId: string): Promise<ProjectMemberSummary[]> {
  const rows = await db.projectMember.findMany({ where: { projectId }, include: { user: true }, orderBy: { createdAt: "asc" } });
  return rows.filter((row) => isProjectRole(row.role)).map((row) => ({ userId: row.userId, email: row.user.email, name: row.user.name, role: row.role as ProjectRole }));
}

export type UserSummary = { id: string; email: string; name: string; isAdmin: boolean; createdAt: Date };

export async function listUsers(db: Db): Promise<UserSummary[]> {
  return db.user.findMany({ select: { id: true, email: true, name: true, isAdmin: true, createdAt: true }, orderBy: { createdAt: "asc" } });
}
