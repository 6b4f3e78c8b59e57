import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Auth } from "./auth";
import { createAccount } from "./manage-users";

export type IssuedCredential = { email: string; password: string; role: string };

/**
 * The first start creates one admin account and returns its one-time password to be shown once;
 * once any admin exists, nothing happens.
 */
export async function ensureAdminAccount(auth: Auth, db: Db, config: Config): Promise<IssuedCredential | null> {
  if (await db.user.count({ where: { isAdmin: true } })) return null;
  const { password } = await createAccount(auth, db, { email: config.adminEmail, name: "Admin", isAdmin: true, password: config.initialPassword });
  return { email: config.adminEmail, password, role: "admin" };
}
