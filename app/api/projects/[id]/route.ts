import { z } from "zod";
import { DEFAULT_MEMORY_PAGE_SIZE, getProject } from "@/lib/projects/get-project";
import { updateProject } from "@/lib/projects/update-project";
import { readJsonBody } from "../../../_server/body";
import { getConfig, getDatabase } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";
import { readPaging } from "../../../_server/paging";
import { otherMethodsThan } from "../../../_server/other-methods";

export const dynamic = "force-dynamic";

const ProjectChanges = z
  .object({
    name: z.string().max(200).optional(),
    repoUrls: z.array(z.string().max(500)).max(20).optional(),
    allowSelfApproval: z.boolean().optional(),
    archived: z.boolean().optional(),
    codeRepo: z.string().max(500).nullable().optional(),
    staleAfterDays: z.record(z.string().max(40), z.number().nullable()).nullable().optional(),
  })
  .strict();

const MEMORY_PAGING = { defaultPageSize: DEFAULT_MEMORY_PAGE_SIZE, maxPageSize: 500 };

/**
 * GET /api/projects/:id?page=N&pageSize=M: one project and a page of its team memories (newest
 * first, 100 per page by default, at most 500), with `page`, `pageSize` and `pageCount`.
 */
export const GET = route<{ id: string }>(access.project("read"), async ({ request, params }) => {
  const paging = readPaging(new URL(request.url).searchParams, MEMORY_PAGING);
  return json(await getProject(getConfig(), getDatabase(), params.id, paging));
});

/** PATCH /api/projects/:id {name?, repoUrls?, allowSelfApproval?, archived?, codeRepo?, staleAfterDays?}: a lead of the project or an admin. */
export const PATCH = route<{ id: string }>(access.project("manage"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, ProjectChanges);
  const project = await updateProject(getConfig(), getDatabase(), { actor: { userId: caller.userId, name: caller.name, email: caller.email }, projectId: params.id, input });
  return json({ project });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethodsThan("GET", "PATCH");
