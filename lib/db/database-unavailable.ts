import type { Config } from "../config";
import { AppError } from "../errors";

/** Turns a driver or Prisma failure into an AppError that names what to change, never raw text. */
export function databaseUnavailable(config: Pick<Config, "databaseKind">, cause: unknown): AppError {
  const where =
    config.databaseKind === "sqlite"
      ? "the SQLite file (set DATABASE_URL or TEAMMEM_DATA_DIR)"
      : "the PostgreSQL server in DATABASE_URL";
  return new AppError(
    "DATABASE_UNAVAILABLE",
    `The database could not be used: check ${where} and run \`npm start\` (or \`npx teammem doctor\`).`,
    { cause },
  );
}
