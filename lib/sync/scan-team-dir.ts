import { readFile } from "node:fs/promises";
import path from "node:path";
import { listMarkdownFiles } from "../memdir/list-markdown-files";
import { MAX_CONTENT_BYTES } from "../review/validate-proposal-input";
import { findStoreNameProblem } from "../review/find-store-name-problem";
import { scanSecrets } from "../secrets/scan-secrets";
import { gitBlobId } from "./git-blob-id";

/** C12: Claude Code's own team sync drops bigger files silently; teammem names them. */
export const CLAUDE_SYNC_MAX_BYTES = 250_000;

export type LocalTeamFile = { path: string; content: string; hash: string };
export type SkippedTeamFile = { path: string; reason: string };
export type TeamDirScan = { files: Map<string, LocalTeamFile>; skipped: SkippedTeamFile[] };

/**
 * Every memory in a member's team/ folder that may travel to the store, and every one that may
 * not, with the reason (nothing is skipped silently): over the size limits, holding a secret
 * (scanned here, so it never leaves the machine), an invalid name (C12), or a symbolic link.
 */
export async function scanTeamDir(teamDir: string): Promise<TeamDirScan> {
  const listing = await listMarkdownFiles(teamDir);
  const scan: TeamDirScan = { files: new Map(), skipped: listing.skipped.map((skipped) => ({ path: skipped.path, reason: skipped.message })) };
  for (const relativePath of listing.files) {
    const nameProblem = findStoreNameProblem(relativePath);
    if (nameProblem) {
      scan.skipped.push({ path: relativePath, reason: `invalid name: ${nameProblem}` });
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(teamDir, relativePath));
    } catch {
      scan.skipped.push({ path: relativePath, reason: "could not be read" });
      continue;
    }
    const problem = findContentProblem(bytes);
    if (problem) scan.skipped.push({ path: relativePath, reason: problem });
    else scan.files.set(relativePath, { path: relativePath, content: bytes.toString("utf8"), hash: gitBlobId(bytes) });
  }
  scan.skipped.sort((a, b) => a.path.localeCompare(b.path));
  return scan;
}

/** Why a file's bytes may not be proposed, or null. */
export function findContentProblem(bytes: Buffer): string | null {
  if (bytes.length > CLAUDE_SYNC_MAX_BYTES) return `larger than ${CLAUDE_SYNC_MAX_BYTES.toLocaleString("en")} bytes (Claude Code's team sync limit)`;
  if (bytes.length > MAX_CONTENT_BYTES) return `larger than ${MAX_CONTENT_BYTES / 1024} KB (the team store's limit); split it into two memories`;
  const text = bytes.toString("utf8");
  if (text.includes("\0") || Buffer.compare(Buffer.from(text, "utf8"), bytes) !== 0) return "not UTF-8 text";
  const secrets = scanSecrets(text);
  if (secrets.length > 0) return `holds a secret (${[...new Set(secrets.map((finding) => finding.kind))].join(", ")}); it stays on this machine — remove it or run \`teammem sync --redact FILE\``;
  return null;
}
