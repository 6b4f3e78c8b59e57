import type { Db } from "../db/client";
import { DEMO_MEMBERS, DEMO_PROJECT } from "./demo-team";

/** Adds the demo project and team to the database; rows that exist are left as they are. */
export async function seedDemoDatabase(db: Db): Promise<void> {
  await db.project.upsert({
    where: { id: DEMO_PROJECT.id },
    create: { id: DEMO_PROJECT.id, name: DEMO_PROJECT.name, remoteUrl: DEMO_PROJECT.remote },
    update: {},
  });
  for (const member of Object.values(DEMO_MEMBERS)) {
    const row = await db.member.upsert({
      where: { email: member.email },
      create: { email: member.email, name: member.name },
      update: {},
    });
    await db.projectMember.upsert({
      where: { projectId_memberId: { projectId: DEMO_PROJECT.id, memberId: row.id } },
      create: { projectId: DEMO_PROJECT.id, memberId: row.id, role: member.role },
      update: {},
    });
  }
}
