import * as z from "zod/mini";
import { resolveApiTarget } from "../../lib/client/resolve-api-target";
import { callTeammemApi } from "../../lib/client/teammem-api";
import type { Command } from "../command";
import { EXIT, linesOf, type Output } from "../output";

const HELP = `teammem projects — list, create, archive and unarchive team projects (through the server)

Usage:
  teammem projects list [--archived] [--json]
  teammem projects create --name NAME [--id ID] [--repo URL]... [--lead EMAIL] [--self-approval] [--json]
  teammem projects archive ID [--json]
  teammem projects unarchive ID [--json]

The server and token are those of \`teammem login\`, or TEAMMEM_TOKEN with TEAMMEM_SERVER. create
needs an admin's token. archive and unarchive need a lead of the project (or an admin), with a
token scoped to that project.
  --id       stable id: lowercase letters, digits, dots, dashes. Default: derived from the first
             --repo (github.com/acme/checkout → acme-checkout), else from --name.
  --repo     a repository whose checkouts belong to the project; repeat for several. Any clone
             URL works (git@github.com:acme/app.git, https://…); it is stored as host/path.
  --lead     the email of an existing account that becomes the project's first lead.
  --archived (admins) list archived projects too.
Archived projects leave every list and refuse new proposals; their history stays in the store.`;

// parseArgs collects a repeated --repo into a list; checked here rather than trusted.
const OPTIONS = {
  id: { type: "string" },
  name: { type: "string" },
  repo: { type: "string", multiple: true },
  lead: { type: "string" },
  "self-approval": { type: "boolean" },
  archived: { type: "boolean" },
} as const;
const RepoFlag = z.optional(z.union([z.string(), z.array(z.string())]));

type Project = { id: string; name: string; repoUrls: string[]; memoryCount: number; memberCount: number; archivedAt: string | null };

export const projectsCommand: Command = {
  name: "projects",
  summary: "list, create, archive or unarchive team projects (on the server)",
  help: HELP,
  options: OPTIONS,
  async run({ positionals, flags, config: loadConfig, output }) {
    const [action, projectId, ...rest] = positionals;
    const usage = (problem: string) => (output.error(`teammem projects: ${problem}.`, "", ...linesOf(HELP)), EXIT.usage);
    if (action !== "list" && action !== "create" && action !== "archive" && action !== "unarchive") return usage(`unknown action "${action ?? ""}"`);
    if (rest.length > 0 || (action === "list" || action === "create" ? projectId !== undefined : projectId === undefined)) return usage("missing or extra arguments");
    const repos = RepoFlag.safeParse(flags.repo);
    if (!repos.success) return usage("--repo takes a URL");
    if (action === "create" && typeof flags.name !== "string") return usage("create needs --name");

    // Every command resolves the server one way: a token goes only to the server it is meant for.
    const target = await resolveApiTarget(loadConfig());
    if (action === "list") {
      const { projects } = await callTeammemApi<{ projects: Project[] }>(target, "GET", `/api/projects${flags.archived ? "?archived=include" : ""}`);
      return printList(output, projects);
    }
    const { project } =
      action === "create"
        ? await callTeammemApi<{ project: Project }>(target, "POST", "/api/projects", {
            name: flags.name,
            ...(typeof flags.id === "string" ? { id: flags.id } : {}),
            repoUrls: [repos.data ?? []].flat(),
            ...(typeof flags.lead === "string" ? { leadEmail: flags.lead } : {}),
            allowSelfApproval: flags["self-approval"] === true,
          })
        : await callTeammemApi<{ project: Project }>(target, "PATCH", `/api/projects/${encodeURIComponent(projectId!)}`, { archived: action === "archive" });
    if (output.isJson) output.json({ project });
    else output.print(`${action === "create" ? "Created" : action === "archive" ? "Archived" : "Unarchived"} ${project.id} (${project.name}).`);
    return EXIT.ok;
  },
};

function printList(output: Output, projects: Project[]): number {
  if (output.isJson) return output.json({ projects }), EXIT.ok;
  if (projects.length === 0) output.print("No projects you can see. An admin creates them: teammem projects create --name NAME.");
  const width = Math.max(2, ...projects.map((project) => project.id.length)) + 2;
  for (const project of projects) {
    const counts = `${project.memoryCount} memories, ${project.memberCount} members`;
    const repos = project.repoUrls.length ? `  ${project.repoUrls.join(", ")}` : "";
    output.print(`${project.id.padEnd(width)}${project.name}  (${counts}${project.archivedAt ? ", archived" : ""})${repos}`);
  }
  return EXIT.ok;
}
