import { realpath } from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import type { Config } from "../config";
import { AppError } from "../errors";
import { isInsideFolder } from "../memdir/is-inside-folder";
import { parseMemoryHeader } from "../memdir/frontmatter";
import { NotRegularFileError, readRegularFile } from "../memdir/read-regular-file";
import { isMemoryFileName } from "../memdir/list-markdown-files";
import { findPrivateTypeProblem } from "../memdir/find-private-type-problem";
import { CLAUDE_SYNC_MAX_BYTES, findContentProblem, findTravelNameProblem } from "./scan-team-dir";
import { findSyncProject } from "./find-sync-project";
import { findTeamMemoryDir } from "./find-team-memory-dir";
import { findWaitingProposal } from "./find-waiting-proposal";
import { readSyncHead } from "./read-sync-head";

export type ProposePrivateMemoryOptions = { config: Pick<Config, "claudeCodeEnv" | "homeDir">; target: ApiTarget; file: string; cwd: string; projectId: string | null };

/** `isAlreadyWaiting`: the same text for the same path waited for review already; nothing was sent. */
export type ProposedMemory = { proposalId: string; projectId: string; path: string; url: string; needsConventionConfirmation: boolean; isAlreadyWaiting: boolean };

const Answer = z.object({ proposal: z.object({ id: z.string(), path: z.string() }) });

/**
 * `teammem propose FILE`: a private memory offered to the team. T2 decides first: a `user`
 * memory is about one person and is refused with the reason, as is one whose type the server
 * could not read (it may be a `user` memory); a `feedback` one goes, and the lead is asked to
 * confirm it is a team convention. The file is scanned before upload: one holding a
 * secret never leaves the machine.
 */
export async function proposePrivateMemory({ config, target, file, cwd, projectId }: ProposePrivateMemoryOptions): Promise<ProposedMemory> {
  const absolute = path.resolve(file);
  // First: a link (to /etc/passwd) is not followed and a named pipe not waited on, as sync and
  // scan refuse them; the bytes checked below are the very bytes sent.
  const bytes = await readProposedFile(file, absolute);
  const location = await findTeamMemoryDir({ cwd, env: config.claudeCodeEnv, homeDir: config.homeDir });
  const [realFile, realTeamDir] = await Promise.all([realpath(absolute).catch(() => absolute), realpath(location.teamDir).catch(() => location.teamDir)]);
  if (isInsideFolder(realTeamDir, realFile) || isInsideFolder(location.teamDir, absolute)) {
    throw new AppError("INVALID_INPUT", `${file} is in team/ already: changes there reach the team with \`teammem sync\` (as a proposal for review). Nothing was sent.`);
  }
  const relative = path.relative(location.memoryDir, absolute);
  const storePath = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative.split(path.sep).join("/") : path.basename(file);
  // The name is checked here, before the text leaves the machine, by the store's own rules.
  const nameProblem = !isMemoryFileName(path.posix.basename(storePath)) ? "is not a memory file (a .md file other than MEMORY.md)" : findTravelNameProblem(storePath);
  if (nameProblem) throw new AppError("INVALID_INPUT", `${file}: ${nameProblem}. Rename it and propose again; nothing was sent.`);
  const problem = findContentProblem(bytes);
  // The reasons read after a name in sync's list ("x.md: larger than …"); here they follow "is".
  if (problem) throw new AppError(problem.startsWith("holds a secret") ? "SECRET_FOUND" : "INVALID_MEMORY", `${file} ${problem.startsWith("holds") ? "" : "is "}${problem}; nothing was sent.`);
  const content = bytes.toString("utf8");
  const typeProblem = findPrivateTypeProblem(storePath, content);
  if (typeProblem) throw new AppError("INVALID_MEMORY", `${file} ${typeProblem}. Nothing was sent.`);
  const { type } = parseMemoryHeader(content);
  const remembered = await readSyncHead(location.memoryDir);
  const project = await findSyncProject(target, { flagProjectId: projectId, rememberedProjectId: remembered?.server === target.server ? remembered.projectId : null, checkoutRoot: location.checkoutRoot });
  const proposed = (proposalId: string, proposedPath: string, isAlreadyWaiting: boolean): ProposedMemory => ({ proposalId, projectId: project, path: proposedPath, url: new URL(`/review/${proposalId}`, target.server).toString(), needsConventionConfirmation: type === "feedback", isAlreadyWaiting });
  const waiting = await findWaitingProposal(target, { projectId: project, path: storePath, content });
  if (waiting) return proposed(waiting, storePath, true);
  const payload = Answer.safeParse(await callTeammemApi<unknown>(target, "POST", `/api/projects/${encodeURIComponent(project)}/proposals`, { path: storePath, content, baseBlob: null }));
  if (!payload.success) throw new AppError("SERVER_UNAVAILABLE", "The teammem server's answer could not be read; check the review queue before proposing again.");
  return proposed(payload.data.proposal.id, payload.data.proposal.path, false);
}

/** One byte over the limit is enough for findContentProblem to say the file is too large. */
async function readProposedFile(file: string, absolute: string): Promise<Buffer> {
  try {
    return (await readRegularFile(absolute, CLAUDE_SYNC_MAX_BYTES + 1)).bytes;
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw new AppError("INVALID_INPUT", `Cannot read ${file}.`);
    const what = error.isSymbolicLink ? "is a symbolic link, and teammem does not follow links (one could lead anywhere); propose the file it points to" : `is ${error.kind}, not a regular file`;
    throw new AppError("INVALID_INPUT", `${file} ${what}. Nothing was sent.`);
  }
}
