/**
 * Next.js calls register() once when a server process starts. The schedules need Node (git, the
 * database), so the edge runtime skips them, and the import is dynamic so its bundle never sees
 * them.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerSchedules } = await import("./app/_server/schedules");
  startServerSchedules();
}
