import { listVisibleProjectIds } from "@/lib/auth/permissions";
import { listStoreProjects, refreshStore } from "@/lib/store/read-store";
import { getConfig, getDatabase } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/projects: the store's projects the caller may see, with memory counts. */
export const GET = route(access.signedIn, async ({ caller }) => {
  const config = getConfig();
  await refreshStore(config);
  const visible = new Set(await listVisibleProjectIds(getDatabase(), caller));
  return json({ projects: (await listStoreProjects(config)).filter((project) => visible.has(project.id)) });
});
