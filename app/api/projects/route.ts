import { z } from "zod";
import { AppError } from "@/lib/errors";
import { createProject } from "@/lib/projects/create-project";
import { listProjects } from "@/lib/projects/list-projects";
import { readJsonBody } from "../../_server/body";
import { getConfig, getDatabase } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";
import { otherMethodsThan } from "../../_server/other-methods";

export const dynamic = "force-dynamic";

const NewProjectInput = z
  .object({
    id: z.string().max(100).optional(),
    name: z.string().max(200),
    repoUrls: z.array(z.string().max(500)).max(20).optional(),
    leadEmail: z.email().max(320).optional(),
    allowSelfApproval: z.boolean().optional(),
  })
  .strict();

/** GET /api/projects[?archived=include]: the projects the caller may see, with memory counts; archived ones for admins on request. */
export const GET = route(access.signedIn, async ({ request, caller }) => {
  const includeArchived = new URL(request.url).searchParams.get("archived") === "include";
  if (includeArchived && !caller.isAdmin) throw new AppError("FORBIDDEN", "Only an admin can list archived projects.");
  return json({ projects: await listProjects({ config: getConfig(), db: getDatabase(), caller, includeArchived }) });
});

/** POST /api/projects {id?, name, repoUrls?, leadEmail?, allowSelfApproval?}: an admin creates a project. */
export const POST = route(access.admin, async ({ request, caller }) => {
  const input = await readJsonBody(request, NewProjectInput);
  const project = await createProject(getConfig(), getDatabase(), { actor: { userId: caller.userId, name: caller.name, email: caller.email }, input });
  return json({ project }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
