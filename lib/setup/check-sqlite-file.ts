import { open } from "node:fs/promises";
import { AppError } from "../errors";

const SQLITE_MAGIC = "SQLite format 3\0";

/**
 * Refuses a file that exists but is not a SQLite database, before any tool writes to it: a
 * corrupt or foreign file is reported and left exactly as it is. Returns whether the file exists.
 */
export async function checkSqliteFile(sqliteFile: string): Promise<{ exists: boolean }> {
  let handle;
  try {
    handle = await open(sqliteFile, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { exists: false };
    throw corrupt(sqliteFile, "cannot be read", error);
  }
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    if (bytesRead === 0) return { exists: true }; // an empty file is a valid, empty database
    if (header.toString("latin1", 0, bytesRead) !== SQLITE_MAGIC) {
      throw corrupt(sqliteFile, "is not a SQLite database (it may be corrupt)");
    }
    return { exists: true };
  } finally {
    await handle.close();
  }
}

function corrupt(sqliteFile: string, problem: string, cause?: unknown): AppError {
  return new AppError(
    "DATABASE_UNAVAILABLE",
    `The database file ${sqliteFile} ${problem}; teammem left it untouched. Move it aside or set ` +
      "DATABASE_URL (or TEAMMEM_DATA_DIR) to another location.",
    { cause, details: { variable: "DATABASE_URL" } },
  );
}
