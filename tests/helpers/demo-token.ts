/**
 * For tests that run the app's route handlers in-process: runs `npm start`'s setup (demo team) with
 * the settings already in process.env, then gives one demo account an API token for the projects
 * named, as the Settings page would. Imports are dynamic so the caller's env is read first.
 */
export async function setUpDemoWithToken(email: string, options: { name: string; projectIds: string[] }): Promise<string> {
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  return demoToken(email, options);
}

/** Another API token, for a demo account of the world setUpDemoWithToken set up. */
export async function demoToken(email: string, options: { name: string; projectIds: string[] }): Promise<string> {
  const { getDatabase } = await import("@/app/_server/context");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const db = getDatabase();
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  const caller = { userId: user.id, email: user.email, name: user.name, isAdmin: false, via: "session" as const, tokenProjectIds: null };
  return (await createApiToken(db, caller, options)).token;
}
