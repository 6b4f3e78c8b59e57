/**
 * Whether an error means the database could not be reached or dropped the connection mid-way
 * (PostgreSQL stopped or restarted, the network cut), as opposed to a bug or a refused query.
 * Such a request is answered 503 DATABASE_UNAVAILABLE like the reads on the driver already were:
 * a PostgreSQL stopped mid-approval answered 500 "something went wrong", also for approvals that
 * had landed. Looks through `cause` chains: Prisma, its driver adapter and pg each wrap the others.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current !== null && typeof current === "object" && depth < 6; depth++) {
    const { name, code, message, meta, cause } = current as { name?: unknown; code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } }; cause?: unknown };
    if (name === "PrismaClientInitializationError") return true;
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
    const kind = meta?.driverAdapterError?.cause?.kind;
    if (typeof kind === "string" && UNREACHABLE_KINDS.has(kind)) return true;
    if (typeof message === "string" && UNREACHABLE_MESSAGE.test(message)) return true;
    current = cause;
  }
  return false;
}

// Prisma's "can't reach / server closed / timed out getting a connection"; PostgreSQL's
// shutdown and connection-failure states; the socket's own.
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNREACHABLE_MESSAGE = /Connection terminated unexpectedly|terminating connection due to administrator command|the database system is (?:shutting down|starting up|in recovery mode)|Can't reach database server/;
