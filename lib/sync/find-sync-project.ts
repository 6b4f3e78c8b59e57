import * as z from "zod/mini";
import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import { AppError } from "../errors";
import { readCheckoutOrigin } from "../hooks/find-checkout-project";

const ProjectList = z.object({ projects: z.array(z.object({ id: z.string(), repoUrls: z.array(z.string()) })) });

const ORIGIN_TIMEOUT_MS = 10_000;

export type FindSyncProjectOptions = {
  /** `--project ID`: wins over everything. */
  flagProjectId: string | null;
  /** The project a previous sync of this memory directory used. */
  rememberedProjectId: string | null;
  checkoutRoot: string | null;
};

/**
 * Which team project a checkout belongs to: `--project`, else the one remembered from the last
 * sync, else the project whose repository URLs include the checkout's origin (both normalised,
 * so ssh and https clones match).
 */
export async function findSyncProject(target: ApiTarget, options: FindSyncProjectOptions): Promise<string> {
  if (options.flagProjectId) return options.flagProjectId;
  if (options.rememberedProjectId) return options.rememberedProjectId;
  // The prompt hook reads the origin the same way: one `git config` call, no git library loaded.
  const origin = options.checkoutRoot ? await readCheckoutOrigin(options.checkoutRoot, ORIGIN_TIMEOUT_MS) : null;
  if (!origin) {
    throw new AppError("INVALID_INPUT", `${options.checkoutRoot ? "This checkout has no usable origin URL" : "This folder is not a git checkout"}, so its team project is unknown: pass --project ID.`);
  }
  const payload = ProjectList.safeParse(await callTeammemApi<unknown>(target, "GET", "/api/projects"));
  if (!payload.success) throw new AppError("SERVER_UNAVAILABLE", "The teammem server's project list could not be read; nothing was written.", { details: { isMalformedAnswer: true } });
  const matches = payload.data.projects.filter((project) => project.repoUrls.includes(origin));
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length === 0) throw new AppError("NOT_FOUND", `No project you can see lists the repository ${origin}: ask a lead to add it to the project's repository URLs, or pass --project ID.`);
  throw new AppError("INVALID_INPUT", `Several projects list ${origin} (${matches.map((project) => project.id).join(", ")}): pass --project ID.`);
}
