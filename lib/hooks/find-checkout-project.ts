import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import { runCodeGit } from "../code-repo/code-git";
import { normaliseRepoUrl } from "../projects/normalise-repo-url";

/**
 * The checkout's `origin` as teammem compares repository URLs (`github.com/acme/checkout`), or
 * null outside a repository, without an origin, or when git does not answer in time.
 */
export async function readCheckoutOrigin(checkoutDir: string, timeoutMs: number): Promise<string | null> {
  // Exit 1: no origin configured.
  const result = await runCodeGit(checkoutDir, ["config", "--get", "remote.origin.url"], { timeoutMs: Math.max(1, Math.floor(timeoutMs)), okExitCodes: [1] }).catch(() => null);
  const normalised = result?.exitCode === 0 ? normaliseRepoUrl(result.stdout.toString("utf8").trim()) : null;
  return normalised?.ok ? normalised.url : null;
}

type ProjectList = { projects: { id: string; repoUrls?: string[]; archivedAt?: string | null }[] };

/**
 * The project (among those the token reaches) whose repository URLs include this origin, or
 * null. Archived projects are skipped: they take no recall. Two projects claiming one
 * repository: the first the server lists wins (it sorts them; the choice is stable).
 */
export async function findProjectForOrigin(target: ApiTarget, origin: string, signal: AbortSignal): Promise<string | null> {
  const { projects } = await callTeammemApi<ProjectList>(target, "GET", "/api/projects", undefined, { signal });
  const match = projects.find((project) => !project.archivedAt && (project.repoUrls ?? []).some((url) => sameRepository(url, origin)));
  return match?.id ?? null;
}

function sameRepository(url: string, origin: string): boolean {
  const normalised = normaliseRepoUrl(url);
  return normalised.ok && normalised.url === origin;
}
