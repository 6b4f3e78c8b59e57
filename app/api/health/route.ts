import { diagnose } from "@/lib/setup/diagnose";
import { getConfig } from "../../_server/context";
import { handle } from "../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/health: the doctor's checks; 503 when one fails. */
export const GET = handle("GET /api/health", async () => {
  const checks = await diagnose(getConfig());
  const isOk = checks.every((check) => check.status !== "fail");
  return Response.json({ ok: isOk, checks }, { status: isOk ? 200 : 503 });
});
