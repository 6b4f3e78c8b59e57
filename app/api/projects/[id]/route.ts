import { z } from "zod";
import { getProject } from "@/lib/projects/get-project";
import { updateProject } from "@/lib/projects/update-project";
import { readJsonBody } from "../../../_server/body";
import { getConfig, getDatabase } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";

export const dynamic = "force-dynamic";

const ProjectChanges = z
  .object({
    name: z.string().max(200).optional(),
    repoUrls: z.array(z.string().max(500)).max(20).optional(),
    allowSelfApproval: z.boolean().optional(),
    archived: z.boolean().optional(),
  })
  .strict();

/** GET /api/projects/:id: one project and its team memories (newest first); none yet is an empty list. */
export const GET = route<{ id: string }>(access.project("read"), async ({ params }) =>
  json(await getProject(getConfig(), getDatabase(), params.id)),
);

/** PATCH /api/projects/:id {name?, repoUrls?, allowSelfApproval?, archived?}: a lead of the project or an admin. */
export const PATCH = route<{ id: string }>(access.project("manage"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, ProjectChanges);
  const project = await updateProject(getConfig(), getDatabase(), { actor: { userId: caller.userId, name: caller.name, email: caller.email }, projectId: params.id, input });
  return json({ project });
});
