import type { Db } from "../db/client";
import { log } from "../log";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";

/**
 * Account names are checked for credentials when an admin sets them, but better-auth's own
 * update-user endpoint once let anyone set theirs unchecked (now closed): a name holding a key sat
 * in the database and was shown to every member of that person's projects. Start-up masks such a
 * name in place, once, and logs whose (never the value). A few rows a start: the accounts table.
 */
export async function maskCredentialsInAccountNames(db: Db): Promise<string[]> {
  const users = await db.user.findMany({ select: { id: true, email: true, name: true } });
  const masked: string[] = [];
  for (const user of users) {
    const shown = maskSecretsInQuotedNames(user.name);
    if (shown === user.name) continue;
    await db.user.update({ where: { id: user.id }, data: { name: shown } });
    log("warn", "account_name_masked", { email: user.email, reason: "the name held what looks like a credential" });
    masked.push(user.email);
  }
  return masked;
}
