import type { Config } from "../config";
import { AppError } from "../errors";

/** Turns a driver or Prisma failure into an AppError that names what to change, never raw text. */
export function databaseUnavailable(config: Pick<Config, "databaseKind">, cause: unknown): AppError {
  const where =
    config.databaseKind === "sqlite"
      ? "the SQLite file (set DATABASE_URL or TEAMMEM_DATA_DIR)"
      : "the PostgreSQL server in DATABASE_URL";
  const reason = config.databaseKind === "postgresql" ? postgresReason(cause) : null;
  return new AppError(
    "DATABASE_UNAVAILABLE",
    reason
      ? `The database could not be used: ${reason}. Fix DATABASE_URL and run \`npm start\` (or \`npx teammem doctor\`).`
      : `The database could not be used: check ${where} and run \`npm start\` (or \`npx teammem doctor\`).`,
    { cause },
  );
}

// Prisma's connection errors (P1000…; `prisma migrate` words them), or a raw query's failure
// carrying PostgreSQL's own code: said in words, with nothing of the URL (it may hold the password).
const REASONS: [RegExp, string][] = [
  [/\bP1000\b|\b28P01\b|Authentication failed against database server/, "the PostgreSQL server refused the user name or password in DATABASE_URL"],
  [/\bP1003\b|\b3D000\b|Database `[^`]*` does not exist/, "the database named in DATABASE_URL does not exist on that server (create it, e.g. with createdb)"],
  [/\bP100[12]\b|Can't reach database server/, "nothing answers at the host and port in DATABASE_URL (is PostgreSQL running, and is the address right?)"],
];

function postgresReason(cause: unknown): string | null {
  const error = cause as { code?: unknown; message?: unknown } | null;
  if (typeof error?.code !== "string") return null;
  return findPostgresReason(error.code) ?? (error.code === "P2010" && typeof error.message === "string" ? findPostgresReason(error.message) : null);
}

/** Why PostgreSQL refused, in words, from an error code or from `prisma migrate`'s output; null when it does not say. */
export function findPostgresReason(text: string): string | null {
  return REASONS.find(([pattern]) => pattern.test(text))?.[1] ?? null;
}
