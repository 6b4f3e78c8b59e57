import { open, stat } from "node:fs/promises";
import { AppError } from "../errors";

const SQLITE_MAGIC = "SQLite format 3\0";

/**
 * Refuses a file that exists but is not a SQLite database, before any tool writes to it: a
 * corrupt or foreign file is reported and left exactly as it is. Returns whether the file exists.
 */
export async function checkSqliteFile(sqliteFile: string): Promise<{ exists: boolean }> {
  const found = await stat(sqliteFile).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw unusable(sqliteFile, error.code === "ENOTDIR" ? "is inside something that is not a folder" : "cannot be read by this user", error);
  });
  if (!found) return { exists: false };
  if (found.isDirectory()) {
    throw unusable(sqliteFile, "is a folder, not a database file; set DATABASE_URL to a file in it, such as file:" + `${sqliteFile.replace(/\/$/, "")}/teammem.db`);
  }
  const handle = await open(sqliteFile, "r").catch((error: unknown) => {
    throw unusable(sqliteFile, "cannot be read by this user", error);
  });
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

// A path that cannot be used as it is, though what is there may be fine: never "move it aside".
function unusable(sqliteFile: string, problem: string, cause?: unknown): AppError {
  const fix = problem.includes("DATABASE_URL") ? "" : "; fix that, or set DATABASE_URL (or TEAMMEM_DATA_DIR) to another location";
  return new AppError("DATABASE_UNAVAILABLE", `The database path ${sqliteFile} ${problem}${fix}. teammem left it untouched.`, {
    cause,
    details: { variable: "DATABASE_URL" },
  });
}
