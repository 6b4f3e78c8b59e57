import path from "node:path";
import { findCanonicalGitRoot } from "../memdir/find-canonical-git-root";
import { findProjectFolder } from "../memdir/find-project-folder";
import { resolveConfigHome, type Env } from "../memdir/resolve-config-home";
import { collectWriteProvenance, type WriteProvenance } from "./find-write-provenance";

/** X9: what a sync proposal may carry of a transcript, in all (a few KB; the server caps provenance at 16 KB). */
export const MAX_WRITE_EVIDENCE_BYTES = 4 * 1024;

export type SyncEvidenceLocation = { env: Env; homeDir: string; cwd: string; teamDir: string };

/** Finds, for one team file (its path inside team/), the session that wrote it; null when none did. */
export type WriteEvidenceFinder = (teamPath: string) => Promise<WriteProvenance | null>;

/**
 * `teammem sync --share-evidence`: looks up who wrote a team file in this checkout's Claude Code
 * transcripts (C13: `<config home>/projects/<folder of the directory Claude started in>/`), the
 * worktree's folder first, then the main checkout's. The transcripts are read once, on the
 * first question, for every file under team/; only ever called when the member opted in.
 */
export function createSyncWriteEvidenceFinder(location: SyncEvidenceLocation): WriteEvidenceFinder {
  let written: Promise<Map<string, WriteProvenance>> | null = null;
  return async (teamPath) => {
    written ??= collectTeamWrites(location);
    const found = (await written).get(path.join(location.teamDir, ...teamPath.split("/")));
    return found ? capWriteEvidence(found) : null;
  };
}

async function collectTeamWrites(location: SyncEvidenceLocation): Promise<Map<string, WriteProvenance>> {
  const inTeamDir = (absolutePath: string) => absolutePath.startsWith(path.join(location.teamDir, path.sep));
  const all = new Map<string, WriteProvenance>();
  for (const folder of await listTranscriptFolders(location)) {
    for (const [file, provenance] of await collectWriteProvenance(folder, inTeamDir)) if (!all.has(file)) all.set(file, provenance);
  }
  return all;
}

/** Drops the last messages (the user's words come first and stay) until the whole fits the cap. */
export function capWriteEvidence(found: WriteProvenance): WriteProvenance {
  const capped = { ...found, messages: [...found.messages] };
  while (capped.messages.length > 0 && Buffer.byteLength(JSON.stringify(capped)) > MAX_WRITE_EVIDENCE_BYTES) capped.messages.pop();
  return capped;
}

async function listTranscriptFolders({ env, homeDir, cwd }: SyncEvidenceLocation): Promise<string[]> {
  const configHome = resolveConfigHome(env, homeDir);
  const roots = await findCanonicalGitRoot(cwd);
  const starts = [...new Set([roots?.worktreeRoot, roots?.canonicalRoot, path.resolve(cwd)].filter((start): start is string => start !== undefined))];
  const folders = await Promise.all(starts.map(async (start) => path.join(configHome, "projects", (await findProjectFolder(configHome, start)).folder)));
  return [...new Set(folders)];
}
