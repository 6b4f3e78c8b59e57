import { closeSync, lstatSync, readFileSync, type Stats } from "node:fs";
import path from "node:path";
import { listMarkdownFiles } from "../memdir/list-markdown-files";
import { openRegularFileSync } from "../memdir/read-regular-file";
import { MAX_CONTENT_BYTES } from "../review/validate-proposal-input";
import { findStoreNameProblem } from "../review/find-store-name-problem";
import { findCredentialInName } from "../secrets/find-credential-in-name";
import { scanSecrets } from "../secrets/scan-secrets";
import { gitBlobId } from "./git-blob-id";
import type { SeenFile } from "./sync-state";

/** C12: Claude Code's own team sync drops bigger files silently; teammem names them. */
export const CLAUDE_SYNC_MAX_BYTES = 250_000;

/**
 * A file whose mtime is this close to (or after) the start of the sync that saw it may still
 * change within the same timestamp tick without its stat showing it ("racily clean" in git's
 * words): its record is not kept, so the next sync reads it again. Two seconds covers the
 * coarsest filesystems in use.
 */
const RACY_MS = 2_000;

/** `content` is null when the file was not read: its stat matched the last sync's record. */
export type LocalTeamFile = { path: string; content: string | null; hash: string };
export type SkippedTeamFile = { path: string; reason: string };
export type TeamDirScan = {
  teamDir: string;
  files: Map<string, LocalTeamFile>;
  skipped: SkippedTeamFile[];
  /** What each file looked like now: the next sync's records. */
  seen: Map<string, SeenFile>;
  /** When the scan started (racy records are judged against it). */
  startedAtMs: number;
};

/**
 * Every memory in a member's team/ folder that may travel to the store, and every one that may
 * not, with the reason (nothing is skipped silently): over the size limits, holding a secret
 * (scanned here, so it never leaves the machine), an invalid name (C12), or a symbolic link. A
 * file whose size, mtime and inode match the record of the last sync is not read again: its
 * hash and verdict stand. Stats and reads are synchronous: the sync has nothing else to do
 * meanwhile, and 5,000 `lstat` calls in a row cost a few milliseconds where as many promises
 * cost a hundred.
 */
export async function scanTeamDir(teamDir: string, previous: Record<string, SeenFile> = {}): Promise<TeamDirScan> {
  const startedAtMs = Date.now();
  const listing = await listMarkdownFiles(teamDir);
  const scan: TeamDirScan = { teamDir, files: new Map(), skipped: listing.skipped.map((skipped) => ({ path: skipped.path, reason: skipped.message })), seen: new Map(), startedAtMs };
  // Joined by hand: path.join normalises each of 5,000 paths again, a fifth of a no-op's scan.
  const folderPrefix = path.join(teamDir, "/");
  for (const relativePath of listing.files) {
    // A name with a record passed this check when it was recorded (names do not change).
    const nameProblem = previous[relativePath] ? null : findTravelNameProblem(relativePath);
    if (nameProblem) {
      scan.skipped.push({ path: relativePath, reason: `invalid name: ${nameProblem}` });
      continue;
    }
    const seen = observe(folderPrefix + relativePath, previous[relativePath]);
    if (!seen) {
      scan.skipped.push({ path: relativePath, reason: "could not be read" });
      continue;
    }
    scan.seen.set(relativePath, seen.record);
    if (seen.record.problem) scan.skipped.push({ path: relativePath, reason: seen.record.problem });
    else scan.files.set(relativePath, { path: relativePath, content: seen.content, hash: seen.record.hash });
  }
  scan.skipped.sort((a, b) => a.path.localeCompare(b.path));
  return scan;
}

/**
 * Why a name may not leave this machine: the store's naming rules, and a credential in the name
 * (it would travel in the request itself). `teammem sync` and `teammem propose` ask before sending.
 */
export function findTravelNameProblem(storePath: string): string | null {
  return findStoreNameProblem(storePath) ?? findCredentialInName(storePath);
}

/** The file's record: the previous one when its stat is unchanged, else a fresh read and scan. */
function observe(filePath: string, previous: SeenFile | undefined): { record: SeenFile; content: string | null } | null {
  let info: Stats | undefined;
  let bytes: Buffer;
  try {
    info = lstatSync(filePath, { throwIfNoEntry: false });
    if (!info?.isFile()) return null;
    if (previous && isSameStat(previous, info)) return { record: previous, content: null };
    bytes = readTeamFileSync(filePath);
  } catch {
    return null;
  }
  const problem = findContentProblem(bytes);
  return { record: { ...statOf(info), hash: gitBlobId(bytes), problem }, content: problem ? null : bytes.toString("utf8") };
}

export function statOf(info: Pick<Stats, "size" | "mtimeMs" | "ino">): Pick<SeenFile, "size" | "mtimeMs" | "ino"> {
  return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
}

function isSameStat(record: SeenFile, info: Stats): boolean {
  return record.size === info.size && record.mtimeMs === info.mtimeMs && record.ino === info.ino;
}

/** The records worth saving: those whose mtime lies safely before the sync that took them. */
export function keepTrustworthy(seen: Map<string, SeenFile>, startedAtMs: number): Record<string, SeenFile> {
  const kept: Record<string, SeenFile> = {};
  for (const [relativePath, record] of seen) if (record.mtimeMs < startedAtMs - RACY_MS) kept[relativePath] = record;
  return kept;
}

/**
 * A local file's text to send: from the scan when it was read, else read and scanned again now
 * (a record's verdict is never trusted for what leaves the machine). Null, with the reason added
 * to the scan's skipped list, when it cannot travel.
 */
export function readTravellingContent(scan: TeamDirScan, file: LocalTeamFile): string | null {
  if (file.content !== null) return file.content;
  let bytes: Buffer;
  try {
    bytes = readTeamFileSync(path.join(scan.teamDir, file.path));
  } catch {
    scan.skipped.push({ path: file.path, reason: "could not be read" });
    return null;
  }
  const problem = findContentProblem(bytes);
  if (problem) scan.skipped.push({ path: file.path, reason: problem });
  return problem ? null : bytes.toString("utf8");
}

/** A local file's text as it is on disk (kept on this machine, never sent). */
export function readLocalText(scan: TeamDirScan, file: LocalTeamFile): string {
  return file.content ?? readTeamFileSync(path.join(scan.teamDir, file.path)).toString("utf8");
}

/** A file of team/, never through a link and never a pipe swapped in after the listing (it would block the sync). */
function readTeamFileSync(filePath: string): Buffer {
  const { fd } = openRegularFileSync(filePath);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Why a file's bytes may not be proposed, or null. */
export function findContentProblem(bytes: Buffer): string | null {
  const formProblem = findContentFormProblem(bytes);
  if (formProblem) return formProblem;
  const secrets = scanSecrets(bytes.toString("utf8"));
  if (secrets.length > 0) return `holds a secret (${[...new Set(secrets.map((finding) => finding.kind))].join(", ")}); it stays on this machine — remove it or run \`teammem sync --redact FILE\``;
  return null;
}

/** The size and encoding part of `findContentProblem` (lint scans for secrets with its own rule). */
export function findContentFormProblem(bytes: Buffer): string | null {
  if (bytes.length > CLAUDE_SYNC_MAX_BYTES) return `larger than ${CLAUDE_SYNC_MAX_BYTES.toLocaleString("en")} bytes (Claude Code's team sync limit)`;
  if (bytes.length > MAX_CONTENT_BYTES) return `larger than ${MAX_CONTENT_BYTES / 1024} KB (the team store's limit); split it into two memories`;
  const text = bytes.toString("utf8");
  if (text.includes("\0") || Buffer.compare(Buffer.from(text, "utf8"), bytes) !== 0) return "not UTF-8 text";
  return null;
}

/**
 * The file, or a folder it is in, is on the scan's skipped list (a folder swapped for a link, an
 * unreadable one): the scan could not look at it, so its absence from `files` is no deletion.
 */
export function isSkippedHere(filePath: string, skipped: ReadonlySet<string>): boolean {
  if (skipped.has(filePath)) return true;
  for (let slash = filePath.indexOf("/"); slash !== -1; slash = filePath.indexOf("/", slash + 1)) {
    if (skipped.has(filePath.slice(0, slash))) return true;
  }
  return false;
}
