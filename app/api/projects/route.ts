import { listStoreProjects, refreshStore } from "@/lib/store/read-store";
import { getConfig } from "../../_server/context";
import { handle } from "../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/projects: the store's projects with memory counts. */
export const GET = handle("GET /api/projects", async () => {
  const config = getConfig();
  await refreshStore(config);
  return Response.json({ projects: await listStoreProjects(config) });
});
