import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { link, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { deflate } from "node:zlib";

/**
 * Git's object database written from this process: blobs, trees and commits as loose objects,
 * byte for byte what `git hash-object -w` and `git mktree` write (docs/store.md, "Writing
 * objects"). An approval writes five to seven objects; starting a git process for each was
 * most of its time at 10,000 memories. Reading and every ref update stay with git (git.ts).
 */

export type ObjectType = "blob" | "tree" | "commit";

export type ObjectDatabase = {
  /** The repository's `objects` folder. */
  objectsDir: string;
  hash: "sha1" | "sha256";
};

const deflateAsync = promisify(deflate);
// core.looseCompression's default: loose objects are written for speed and packed later by gc.
const LOOSE_COMPRESSION_LEVEL = 1;
const MAX_DEFLATE_CHUNK = 8 * 1024 * 1024;

const databases = new Map<string, ObjectDatabase | null>();

/**
 * The object database of a repository (a working clone or a bare one), or null for a layout this
 * module does not write into (a linked worktree, an unknown extension): git itself is used then.
 */
export async function objectDatabaseOf(repoDir: string): Promise<ObjectDatabase | null> {
  const key = path.resolve(repoDir);
  if (databases.has(key)) return databases.get(key)!;
  const gitDir = existsSync(path.join(key, ".git")) ? path.join(key, ".git") : key;
  const config = await readFile(path.join(gitDir, "config"), "utf8").catch(() => null);
  const database = config === null || (await stat(path.join(gitDir, "objects")).catch(() => null))?.isDirectory() !== true ? null : describe(gitDir, config);
  databases.set(key, database);
  return database;
}

function describe(gitDir: string, config: string): ObjectDatabase | null {
  const extensions = [...config.matchAll(/^\s*(\w+)\s*=\s*(\S+)/gm)].filter(([, key]) => /^(objectformat|compatobjectformat|partialclone|preciousobjects|worktreeconfig)$/i.test(key!));
  if (extensions.some(([, key]) => !/^objectformat$/i.test(key!))) return null;
  const format = extensions[0]?.[2]?.toLowerCase() ?? "sha1";
  if (format !== "sha1" && format !== "sha256") return null;
  return { objectsDir: path.join(gitDir, "objects"), hash: format };
}

/**
 * Writes one object unless it is already there as a loose object; returns its id. With `pending`,
 * the id is returned as soon as it is known and the write goes on, its promise added to `pending`
 * for the caller to await before anything reads the object: a tree's id needs only its
 * children's ids, so a commit's objects are written at once rather than level by level.
 */
export async function writeObject(database: ObjectDatabase, type: ObjectType, body: Buffer, pending?: Promise<void>[]): Promise<string> {
  const object = Buffer.concat([Buffer.from(`${type} ${body.length}\0`, "utf8"), body]);
  const id = createHash(database.hash).update(object).digest("hex");
  const file = looseObjectPath(database, id);
  if (existsSync(file)) return id;
  // One output chunk for the whole object: with zlib's default 16 KiB each chunk is another
  // thread-pool round trip, and the 10,000-entry tree took 6-9 ms instead of 5.
  const chunkSize = Math.min(Math.max(object.length + 1024, 16 * 1024), MAX_DEFLATE_CHUNK);
  const write = deflateAsync(object, { level: LOOSE_COMPRESSION_LEVEL, chunkSize }).then((bytes) => writeAtomically(file, bytes));
  if (!pending) {
    await write;
    return id;
  }
  write.catch(() => undefined); // seen by whoever awaits `pending`; not an unhandled rejection meanwhile
  pending.push(write);
  return id;
}

export function looseObjectPath(database: ObjectDatabase, id: string): string {
  return path.join(database.objectsDir, id.slice(0, 2), id.slice(2));
}

async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // git's own temporary-object name pattern, so an interrupted write is what git gc already cleans up.
  const temporary = path.join(path.dirname(file), `tmp_obj_${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(temporary, bytes, { mode: 0o444 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Copies objects this process wrote from one database to another (the clone's to the store's,
 * for a push on the same disk). False when one of them is not a loose object in `from`, and the
 * caller falls back to `git push`. Each object is hard-linked, as git links the objects of a
 * local clone: a loose object never changes once written, and a link is one call where a copy
 * was a read, a write and a rename. Across file systems the bytes are copied.
 */
export async function copyLooseObjects(from: ObjectDatabase, to: ObjectDatabase, ids: Iterable<string>): Promise<boolean> {
  if (from.hash !== to.hash) return false;
  const copied = await Promise.all([...new Set(ids)].map((id) => copyLooseObject(looseObjectPath(from, id), looseObjectPath(to, id))));
  return copied.every(Boolean);
}

async function copyLooseObject(source: string, target: string): Promise<boolean> {
  if (existsSync(target)) return true;
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await link(source, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return true; // written meanwhile: objects are content-addressed
    if (code === "ENOENT") return false;
  }
  const bytes = await readFile(source).catch(() => null);
  if (bytes === null) return false;
  await writeAtomically(target, bytes);
  return true;
}
