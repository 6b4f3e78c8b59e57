import type { Auth } from "../auth/auth";
import type { IssuedCredential } from "../auth/ensure-admin-account";
import { createAccount, setProjectRole } from "../auth/manage-users";
import type { Db } from "../db/client";
import { DEMO_MEMBERS, DEMO_PROJECT } from "./demo-team";

/**
 * Adds the demo project and its team (a lead and two members, each with a sign-in) to the
 * database. Accounts that exist are left as they are; new ones get a one-time password.
 */
export async function seedDemoDatabase(auth: Auth, db: Db, password: string | null): Promise<IssuedCredential[]> {
  await db.project.upsert({
    where: { id: DEMO_PROJECT.id },
    create: { id: DEMO_PROJECT.id, name: DEMO_PROJECT.name, remoteUrl: DEMO_PROJECT.remote },
    update: {},
  });
  const issued: IssuedCredential[] = [];
  for (const member of Object.values(DEMO_MEMBERS)) {
    if (!(await db.user.findUnique({ where: { email: member.email }, select: { id: true } }))) {
      const account = await createAccount(auth, db, { email: member.email, name: member.name, password });
      issued.push({ email: member.email, password: account.password, role: `${member.role} of ${DEMO_PROJECT.id}` });
    }
    await setProjectRole(db, { projectId: DEMO_PROJECT.id, email: member.email, role: member.role });
  }
  return issued;
}
