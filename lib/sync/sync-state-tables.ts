/**
 * The sync state's two per-file tables, `files` and `seen`: one row per memory each, so at 5,000
 * synced memories they are nearly all of the state's text. On disk (format 2) they come last, as
 * rows: `files` `[path, blob]` or `[path, blob, local]`, `seen` `[path, size, mtimeMs, ino, hash,
 * problem]` (docs/store.md, "Member sync"). They change only when files move, yet the state is
 * saved at every sync and after every proposal sent, so the text read is kept with its rows and
 * written again as it is when the tables still hold those rows.
 */

/** What sync wrote for a file: the store's blob, and the git blob id of the bytes on disk (differs when the store's text was masked). */
export type SyncedFile = { readonly blob: string; readonly local: string };

/**
 * What a file in team/ looked like when a sync last read it (or wrote it): while size, mtime and
 * inode are unchanged its hash and verdict stand, and the file is neither read nor scanned again
 * (as git's index does).
 */
export type SeenFile = {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  /** The git blob id of the bytes read. */
  readonly hash: string;
  /** Why the file cannot travel (secret, size, not UTF-8), or null. */
  readonly problem: string | null;
};

export type FileRow = [path: string, blob: string, local?: string];
export type SeenRow = [path: string, size: number, mtimeMs: number, ino: number, hash: string, problem: string | null];

export type Tables = { files: Record<string, SyncedFile>; seen: Record<string, SeenFile> };

/** The tables' text as read or written, with the rows it holds: the next save reuses it when nothing changed. */
export type TablesText = { text: string; files: FileRow[]; seen: SeenRow[] };

const TABLES_START = ',"files":[';

export const isFileRow = (row: unknown): row is FileRow =>
  Array.isArray(row) && (row.length === 2 || row.length === 3) && row.every((cell) => typeof cell === "string");
export const isSeenRow = (row: unknown): row is SeenRow =>
  Array.isArray(row) && row.length === 6 && typeof row[0] === "string" && typeof row[1] === "number" && typeof row[2] === "number" && typeof row[3] === "number" && typeof row[4] === "string" && (row[5] === null || typeof row[5] === "string");

/**
 * Where the tables begin in a format-2 text whose last two fields are `files` and `seen` (their
 * rows hold only strings, numbers and null): a quote inside a JSON string is escaped, so the last
 * `,"files":[` of such a text is the key itself.
 */
export function findTablesStart(text: string): number {
  return text.lastIndexOf(TABLES_START);
}

/**
 * The tables from their rows, checked by hand (zod took ~40 ms for 10,000 rows in a fresh
 * process); null when a row is malformed. Every name ends in `.md`, so none is `__proto__`,
 * which an assignment would take for the object's prototype.
 */
export function tablesFromRows(files: unknown, seen: unknown): { tables: Tables; files: FileRow[]; seen: SeenRow[] } | null {
  if (!Array.isArray(files) || !Array.isArray(seen)) return null;
  const tables: Tables = { files: {}, seen: {} };
  for (const row of files) {
    if (!isFileRow(row) || !row[0].endsWith(".md")) return null;
    tables.files[row[0]] = { blob: row[1], local: row[2] ?? row[1] };
  }
  for (const row of seen) {
    if (!isSeenRow(row) || !row[0].endsWith(".md")) return null;
    tables.seen[row[0]] = { size: row[1], mtimeMs: row[2], ino: row[3], hash: row[4], problem: row[5] };
  }
  return { tables, files, seen };
}

/**
 * The tables as the end of a format-2 text (`,"files":[…],"seen":[…]}` and a line end): the
 * text read when they still hold exactly its rows, else written anew.
 */
export function serializeTables(tables: Tables, previous: TablesText | null): TablesText {
  if (previous && holdsRows(tables, previous)) return previous;
  const files: FileRow[] = [];
  for (const [filePath, file] of Object.entries(tables.files)) files.push(file.local === file.blob ? [filePath, file.blob] : [filePath, file.blob, file.local]);
  const seen: SeenRow[] = [];
  for (const [filePath, record] of Object.entries(tables.seen)) seen.push([filePath, record.size, record.mtimeMs, record.ino, record.hash, record.problem]);
  return { text: `,"files":${JSON.stringify(files)},"seen":${JSON.stringify(seen)}}\n`, files, seen };
}

/** Entry for entry the same as the rows: no serializing, no allocation beyond two key counts. */
function holdsRows(tables: Tables, rows: TablesText): boolean {
  if (countKeys(tables.files) !== rows.files.length || countKeys(tables.seen) !== rows.seen.length) return false;
  for (const [filePath, blob, local] of rows.files) {
    const file = tables.files[filePath];
    if (!file || file.blob !== blob || file.local !== (local ?? blob)) return false;
  }
  for (const [filePath, size, mtimeMs, ino, hash, problem] of rows.seen) {
    const record = tables.seen[filePath];
    if (!record || record.size !== size || record.mtimeMs !== mtimeMs || record.ino !== ino || record.hash !== hash || record.problem !== problem) return false;
  }
  return true;
}

function countKeys(record: Record<string, unknown>): number {
  let count = 0;
  for (const key in record) if (Object.hasOwn(record, key)) count++;
  return count;
}
