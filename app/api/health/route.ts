import { diagnose } from "@/lib/setup/diagnose";
import { getConfig } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/health: check names and statuses only (details name paths: admins see them in Settings). */
export const GET = route(access.public, async () => {
  const checks = await diagnose(getConfig());
  const isOk = checks.every((check) => check.status !== "fail");
  return json({ ok: isOk, checks: checks.map(({ name, status }) => ({ name, status })) }, isOk ? 200 : 503);
});
