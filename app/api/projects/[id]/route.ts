import { AppError } from "@/lib/errors";
import { listProjectMemories, listStoreProjects, refreshStore } from "@/lib/store/read-store";
import { getConfig } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/projects/:id: one project and its team memories (newest first). */
export const GET = route<{ id: string }>(access.project("read"), async ({ params }) => {
  const config = getConfig();
  await refreshStore(config);
  const project = (await listStoreProjects(config)).find((candidate) => candidate.id === params.id);
  if (!project) throw new AppError("NOT_FOUND", `Project "${params.id}" has no memory in the team store yet.`);
  return json({ project, memories: await listProjectMemories(config, params.id) });
});
