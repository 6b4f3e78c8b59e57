import { constants } from "node:fs";
import { access, open, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";

const SQLITE_MAGIC = "SQLite format 3\0";

/**
 * Refuses a file that exists but is not a SQLite database, before any tool writes to it: a
 * corrupt or foreign file is reported and left exactly as it is. Also refuses a database that
 * cannot be written (or a folder for it that is missing or read-only), saying so: the migration
 * tool would otherwise fail on it as if it were corrupt. Returns whether the file exists.
 */
export async function checkSqliteFile(sqliteFile: string, { readsHeader = true }: { readsHeader?: boolean } = {}): Promise<{ exists: boolean }> {
  const found = await stat(sqliteFile).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw unusable(sqliteFile, error.code === "ENOTDIR" ? "is inside something that is not a folder" : "cannot be read by this user", error);
  });
  if (!found) {
    await assertFolderWritable(sqliteFile);
    return { exists: false };
  }
  if (found.isDirectory()) {
    throw unusable(sqliteFile, "is a folder, not a database file; set DATABASE_URL to a file in it, such as file:" + `${sqliteFile.replace(/\/$/, "")}/teammem.db`);
  }
  if (readsHeader) await assertSqliteHeader(sqliteFile);
  await access(sqliteFile, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw unusable(sqliteFile, `cannot be written by this user (${whyNotWritable(error)})`, error);
  });
  await assertFolderWritable(sqliteFile);
  return { exists: true };
}

/**
 * Reads the file's first bytes. Only where no SQLite connection to it is open in this process:
 * closing any descriptor of a database file drops every POSIX lock the process holds on it,
 * SQLite's own included (sqlite.org/howtocorrupt.html, 2.2), and the next program to open it
 * then takes it for unused and deletes the live write-ahead log.
 */
async function assertSqliteHeader(sqliteFile: string): Promise<void> {
  const handle = await open(sqliteFile, "r").catch((error: unknown) => {
    throw unusable(sqliteFile, "cannot be read by this user", error);
  });
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    // An empty file is a valid, empty database.
    if (bytesRead > 0 && header.toString("latin1", 0, bytesRead) !== SQLITE_MAGIC) {
      throw corrupt(sqliteFile, "is not a SQLite database (it may be corrupt)");
    }
  } finally {
    await handle.close();
  }
}

// SQLite writes its journal (write-ahead log) beside the database file, and creates the file there.
async function assertFolderWritable(sqliteFile: string): Promise<void> {
  const folder = path.dirname(sqliteFile);
  const found = await stat(folder).catch(() => null);
  if (!found?.isDirectory()) {
    throw new AppError("DATABASE_UNAVAILABLE", `The folder ${folder} for the database file does not exist: create it, or set DATABASE_URL (or TEAMMEM_DATA_DIR) to a file in an existing folder.`, {
      details: { variable: "DATABASE_URL" },
    });
  }
  await access(folder, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new AppError(
      "DATABASE_UNAVAILABLE",
      `The folder ${folder} that holds the database file cannot be written by this user (${whyNotWritable(error)}), and SQLite keeps its journal there: ` +
        "make it writable, or set DATABASE_URL (or TEAMMEM_DATA_DIR) to another location. teammem left it untouched.",
      { cause: error, details: { variable: "DATABASE_URL" } },
    );
  });
}

function whyNotWritable(error: NodeJS.ErrnoException): string {
  if (error.code === "EROFS") return "the file system is mounted read-only";
  if (error.code === "EPERM") return "it is marked immutable (chattr +i) or the system forbids writing";
  return "permission denied";
}

function corrupt(sqliteFile: string, problem: string, cause?: unknown): AppError {
  return new AppError(
    "DATABASE_UNAVAILABLE",
    `The database file ${sqliteFile} ${problem}; teammem left it untouched. Move it aside or set ` +
      "DATABASE_URL (or TEAMMEM_DATA_DIR) to another location.",
    { cause, details: { variable: "DATABASE_URL" } },
  );
}

// A path that cannot be used as it is, though what is there may be fine: never "move it aside".
function unusable(sqliteFile: string, problem: string, cause?: unknown): AppError {
  const fix = problem.includes("DATABASE_URL") ? "" : "; fix that, or set DATABASE_URL (or TEAMMEM_DATA_DIR) to another location";
  return new AppError("DATABASE_UNAVAILABLE", `The database path ${sqliteFile} ${problem}${fix}. teammem left it untouched.`, {
    cause,
    details: { variable: "DATABASE_URL" },
  });
}
