import { isUtf8 } from "node:buffer";
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { NotRegularFileError } from "./read-regular-file";

/**
 * Why a file took no part in a scan. The first two are also lint rule ids; `symlink` is a link
 * whose target lies inside the directory (it is scanned under its own name instead).
 */
export type SkipReason = "unreadable" | "symlink-escape" | "symlink";

export type SkippedFile = { path: string; reason: SkipReason; message: string };

export type MarkdownListing = { files: string[]; skipped: SkippedFile[] };

/**
 * S1, C5: every `*.md` except files named MEMORY.md, at any depth, as relative paths with `/`.
 * Symlinks are never followed: one could lead out of the memory directory (C12), so links that
 * would matter (to a `.md` file or to a folder) are reported instead.
 *
 * One folder is read at a time with blocking calls, yielding to the event loop between folders:
 * reading a folder of 10,000 entries takes a few milliseconds, and through the promise API each
 * folder was a thread-pool round trip the process sat idle for (a tenth of `teammem scan`).
 */
export async function listMarkdownFiles(memoryDir: string): Promise<MarkdownListing> {
  const listing: MarkdownListing = { files: [], skipped: [] };
  let rootReal: string;
  try {
    rootReal = realpathSync(memoryDir);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") listing.skipped.push({ path: ".", reason: "unreadable", message: describeError(error) });
    return listing; // P5: a missing directory is an empty one
  }
  const folders = [""];
  for (let index = 0; index < folders.length; index++) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    listFolder(rootReal, folders[index]!, listing, folders);
  }
  return listing;
}

/** Lists one folder into `listing`, adding its subfolders to `folders` for the caller's walk. */
function listFolder(root: string, relativeDir: string, listing: MarkdownListing, folders: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(root, relativeDir), { withFileTypes: true });
  } catch (error) {
    listing.skipped.push({ path: relativeDir || ".", reason: "unreadable", message: describeError(error) });
    return;
  }
  const unnamable = namesNotUtf8(root, relativeDir, entries);
  for (const entry of entries) {
    const relativePath = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
    if (unnamable?.has(entry.name)) reportNameNotUtf8(entry, relativePath, listing);
    else if (entry.isSymbolicLink()) reportSymlink(root, relativePath, listing);
    else if (entry.isDirectory()) folders.push(relativePath);
    else if (isMemoryFileName(entry.name) && entry.isFile()) listing.files.push(relativePath);
    // A named pipe, socket or device is never opened (a pipe blocks its reader), but it is said.
    else if (isMemoryFileName(entry.name)) listing.skipped.push({ path: relativePath, reason: "unreadable", message: new NotRegularFileError(entry).message });
  }
}

/** How the message for a file or folder whose name is not UTF-8 starts (lint gives it its own fix). */
export const NAME_NOT_UTF8 = "name is not valid UTF-8";

/**
 * S3: Node decodes a name that is not UTF-8 (`caf\xe9.md` from an old tool or an unzip) with
 * U+FFFD in place of the bad bytes, and no file has that decoded name, so opening it fails as if
 * it had disappeared. Only a folder with a U+FFFD in some name is read a second time, as bytes,
 * to tell those from a name that really holds U+FFFD; ordinary folders cost nothing more.
 */
function namesNotUtf8(root: string, relativeDir: string, entries: Dirent[]): Set<string> | null {
  if (!entries.some((entry) => entry.name.includes("\uFFFD"))) return null;
  let rawNames: Buffer[];
  try {
    rawNames = readdirSync(path.join(root, relativeDir), { encoding: "buffer" });
  } catch {
    return null; // gone since the first read: the entries then fail as unreadable on their own
  }
  return new Set(rawNames.filter((rawName) => !isUtf8(rawName)).map((rawName) => rawName.toString()));
}

function reportNameNotUtf8(entry: Dirent, relativePath: string, listing: MarkdownListing): void {
  const shown = `${NAME_NOT_UTF8} (\uFFFD marks the bytes that are not)`;
  if (entry.isDirectory()) listing.skipped.push({ path: relativePath, reason: "unreadable", message: `${shown}, so this folder and the memories in it cannot be opened: rename it` });
  else if (isMemoryFileName(entry.name)) listing.skipped.push({ path: relativePath, reason: "unreadable", message: `${shown}, so it cannot be opened: rename it` });
}

export function isMemoryFileName(name: string): boolean {
  return name.endsWith(".md") && name !== "MEMORY.md";
}

function reportSymlink(root: string, relativePath: string, listing: MarkdownListing): void {
  const fullPath = path.join(root, relativePath);
  let target: string;
  let isDirectory: boolean;
  try {
    target = realpathSync(fullPath);
    isDirectory = statSync(target).isDirectory();
  } catch (error) {
    if (isMemoryFileName(path.basename(relativePath))) {
      listing.skipped.push({ path: relativePath, reason: "unreadable", message: errorCode(error) === "ELOOP" ? "symbolic link loop" : "broken symbolic link" });
    }
    return;
  }
  if (!isDirectory && !isMemoryFileName(path.basename(relativePath))) return; // not a memory either way
  const isInside = target === root || target.startsWith(root + path.sep);
  listing.skipped.push(
    isInside
      ? { path: relativePath, reason: "symlink", message: "symbolic link inside the memory directory (not followed; its target is scanned)" }
      : { path: relativePath, reason: "symlink-escape", message: `symbolic link to ${isDirectory ? "a folder" : "a file"} outside the memory directory (not followed)` },
  );
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

export function describeError(error: unknown): string {
  const code = errorCode(error);
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOENT") return "disappeared while scanning";
  if (code === "ELOOP") return "symbolic link loop";
  return "could not be read";
}
