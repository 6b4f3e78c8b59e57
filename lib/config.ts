import os from "node:os";
import path from "node:path";
import type { AdmissionSettings } from "./admission/work-kinds";
import { AppError } from "./errors";
import { findServerUrlProblem } from "./client/server-url";

/**
 * The one place that reads the environment. Everything else receives a `Config`.
 *
 * Embedded default: everything lives in one data folder (SQLite file, bare git store, demo member
 * home). A team server sets DATABASE_URL to PostgreSQL and TEAMMEM_STORE_REMOTE to a git URL.
 */
export type Config = {
  dataDir: string;
  databaseUrl: string;
  databaseKind: "sqlite" | "postgresql";
  /** Path of the SQLite file when databaseKind is sqlite. */
  sqliteFile: string | null;
  storeRemote: string;
  /** True when the store is the bare repository teammem creates in the data folder. */
  isEmbeddedStore: boolean;
  /** Local working clone of the store that the server reads from and commits in. */
  storeCloneDir: string;
  /** A Claude Code config home whose private memory may be shown; null on a team server. */
  claudeHome: string | null;
  isDemoEnabled: boolean;
  anthropicApiKey: string | null;
  anthropicBaseUrl: string | null;
  recallModel: string;
  /** Extraction (X6): the model that turns a session into proposals, and its deadline per turn. */
  extractionModel: string;
  extractionTimeoutMs: number;
  /** `teammem sync --share-evidence` by default: attach transcript excerpts to sync proposals. */
  shareSyncEvidence: boolean;
  /** Staleness: how often the server fetches each project's code repository and checks again; 0 = only on demand. */
  codeCheckIntervalMinutes: number;
  host: string;
  port: number;
  /** The address people and the CLI use to reach the dashboard (auth cookies and origin checks). */
  publicUrl: string;
  /** Signs sessions; null means "use the secret kept in the data folder". */
  authSecret: string | null;
  adminEmail: string;
  /** For automation: the first password of the admin and demo accounts instead of a random one. */
  initialPassword: string | null;
  /**
   * Failed sign-ins allowed per account and minute before sign-in answers 429 (a client address
   * gets four times as many across accounts). Successful sign-ins do not count.
   */
  signInAttemptsPerMinute: number;
  /**
   * A reverse proxy in front appends the client's address to X-Forwarded-For; without one the
   * address is the connection's, and a client's own X-Forwarded-For is never believed.
   */
  isBehindProxy: boolean;
  /** The only account allowed to see the private memory under claudeHome. */
  claudeHomeOwner: string | null;
  /** CLI: the API token from TEAMMEM_TOKEN (else the one saved by `teammem login`). */
  cliToken: string | null;
  /** CLI: the server address from TEAMMEM_SERVER (else the one saved by `teammem login`). */
  cliServer: string | null;
  /** CLI: where `teammem login` keeps the server address and token (mode 0600). */
  cliConfigDir: string;
  /**
   * Member side (hooks, sync): Claude Code's own variables that decide where a checkout's memory
   * lives (P2, C3), passed unchanged to lib/memdir/resolve-memory-dir.ts, and the home folder.
   */
  claudeCodeEnv: { CLAUDE_CONFIG_DIR?: string; CLAUDE_COWORK_MEMORY_PATH_OVERRIDE?: string };
  homeDir: string;
  logLevel: "debug" | "info" | "warn" | "error";
  /** How many requests of each kind run at once, wait, and for how long, before 503 Busy. */
  admission: AdmissionSettings;
  /**
   * How long a read waits for the read model to catch up with the store (after a push from
   * outside teammem) before it serves the rows of the commit the read model has.
   */
  catchUpWaitMs: number;
  /**
   * Tests only (TEAMMEM_FAULT_POINT): the step of a store commit at which this process kills
   * itself, to prove recovery after a crash there (lib/store/fault-points.ts). Never set it on a
   * server that holds real data.
   */
  faultPoint: FaultPointName | null;
};

/** The steps of an approval where the fault-injection tests stop the process (docs/store.md). */
export const APPROVAL_FAULT_POINT_NAMES = ["after-lock", "after-objects", "after-intent", "after-push", "before-record"] as const;
/** The same for `teammem sync` (docs/store.md, "Member sync"). */
export const FAULT_POINT_NAMES = [...APPROVAL_FAULT_POINT_NAMES, "sync-after-files"] as const;
export type FaultPointName = (typeof FAULT_POINT_NAMES)[number];

export type Env = Record<string, string | undefined>;

const DEFAULT_RECALL_MODEL = "claude-sonnet-4-6";

/**
 * The environment is flat strings, each read by one small reader below: a blank value counts as
 * unset, text is trimmed, and a reader that refuses a value throws its message (never the value,
 * which may be a key). No schema library: every CLI command reads its configuration at start, and
 * building zod's schema of these 40 variables cost a start-up ~25 ms (docs/benchmarks.md, "The CLI").
 */
type Reader<T> = (value: string) => T;

class InvalidVariable extends Error {}

const refuse = (message: string): never => {
  throw new InvalidVariable(message);
};

const text: Reader<string> = (value) => value;
const textThat =
  (isValid: (value: string) => boolean, message: string): Reader<string> =>
  (value) => (isValid(value) ? value : refuse(message));

const ON = ["1", "true", "on", "yes"];
const OFF = ["0", "false", "off", "no"];
const onOff: Reader<boolean> = (value) => (ON.includes(value) ? true : OFF.includes(value) ? false : refuse("must be one of 1/0, true/false, on/off, yes/no"));

// Sized for a 2-core server: enough in flight to overlap git and database waits, few enough that
// the CPU-bound work (recall, page rendering) does not spread itself thin over many requests.
const wholeNumberWithin =
  (min: number, max: number, message: string): Reader<number> =>
  (value) => {
    const number = Number(value);
    return Number.isInteger(number) && number >= min && number <= max ? number : refuse(message);
  };
const wholeNumber = (min: number, max: number, unit: string) => wholeNumberWithin(min, max, `must be a whole number of ${unit} (${min}-${max})`);
const inFlightLimit = wholeNumber(1, 10_000, "requests");
const oneOf =
  <const T extends readonly string[]>(values: T, message: string): Reader<T[number]> =>
  (value) => (values.includes(value) ? (value as T[number]) : refuse(message));
// The address shape zod and most form libraries accept: no leading, trailing or double dot, a dotted domain.
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const email = (message: string) => textThat((value) => EMAIL.test(value), message);
/** An http(s) address without a user name or password (lib/client/server-url.ts says why). */
const serverUrl =
  (message: string, whyNoCredentials: string): Reader<string> =>
  (value) => {
    const problem = findServerUrlProblem(value);
    return problem === "not-http" ? refuse(message) : problem === "credentials" ? refuse(`must not hold a user name or password (${whyNoCredentials}): give only https://host`) : value;
  };
// Served to every visitor (the social image's absolute address): a password in it would be public.
const publicUrl = serverUrl("must be the http(s) address of the dashboard, such as https://teammem.example.com", "every visitor is shown this address");
const databaseUrl: Reader<string> = (value) => {
  if (!/^(file:|postgres(ql)?:\/\/)/.test(value)) return refuse("must start with file: (SQLite) or postgresql:// (PostgreSQL)");
  // "file:" alone would be the working directory, a folder.
  return /^file:(\?|$)/.test(value) ? refuse("must name the SQLite file after file:, such as file:./.teammem/teammem.db") : value;
};
const modelId = textThat((value) => /^[A-Za-z0-9._:-]{1,100}$/.test(value), "must be a model id such as claude-sonnet-4-6");

const readers = {
  TEAMMEM_DATA_DIR: textThat((value) => !value.includes("\0"), "must be a folder path without NUL characters"),
  DATABASE_URL: databaseUrl,
  TEAMMEM_STORE_REMOTE: text,
  TEAMMEM_DEMO: onOff,
  ANTHROPIC_API_KEY: text,
  ANTHROPIC_BASE_URL: serverUrl("must be an http:// or https:// URL", "the model API takes ANTHROPIC_API_KEY, and a failed request names its address"),
  TEAMMEM_RECALL_MODEL: modelId,
  TEAMMEM_EXTRACTION_MODEL: modelId,
  TEAMMEM_EXTRACTION_TIMEOUT_MS: wholeNumber(1_000, 600_000, "milliseconds"),
  TEAMMEM_SHARE_SYNC_EVIDENCE: onOff,
  TEAMMEM_CODE_CHECK_INTERVAL_MINUTES: wholeNumber(0, 10_080, "minutes"),
  HOST: text,
  PORT: wholeNumberWithin(1, 65535, "must be a whole number between 1 and 65535"),
  TEAMMEM_PUBLIC_URL: publicUrl,
  TEAMMEM_AUTH_SECRET: textThat((value) => value.length >= 32, "must be at least 32 characters (generate one with: openssl rand -base64 48)"),
  TEAMMEM_ADMIN_EMAIL: email("must be an email address"),
  TEAMMEM_INITIAL_PASSWORD: textThat((value) => value.length >= 12, "must be at least 12 characters"),
  TEAMMEM_SIGN_IN_LIMIT: wholeNumberWithin(1, 10_000, "must be a whole number of attempts per minute (1-10000)"),
  TEAMMEM_BEHIND_PROXY: onOff,
  TEAMMEM_CLAUDE_HOME_OWNER: email("must be the email of the account that owns the Claude home"),
  TEAMMEM_TOKEN: textThat((value) => /^tm_[A-Za-z0-9]{40}$/.test(value), "must be a teammem API token (tm_ followed by 40 letters and digits); create one on the Settings page"),
  TEAMMEM_SERVER: serverUrl("must be the http(s) address of the teammem server, such as https://teammem.example.com", "the CLI signs in with TEAMMEM_TOKEN, and messages name the server"),
  XDG_CONFIG_HOME: text,
  CLAUDE_CONFIG_DIR: text,
  CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: text,
  TEAMMEM_MAX_IN_FLIGHT_READ: inFlightLimit,
  TEAMMEM_MAX_IN_FLIGHT_RECALL: inFlightLimit,
  TEAMMEM_MAX_IN_FLIGHT_WRITE: inFlightLimit,
  TEAMMEM_MAX_IN_FLIGHT_APPROVE: inFlightLimit,
  TEAMMEM_MAX_IN_FLIGHT_AUTH: inFlightLimit,
  TEAMMEM_MAX_QUEUED: wholeNumber(0, 10_000, "requests"),
  TEAMMEM_MAX_QUEUE_WAIT_MS: wholeNumber(0, 120_000, "milliseconds"),
  TEAMMEM_CATCH_UP_WAIT_MS: wholeNumber(0, 120_000, "milliseconds"),
  TEAMMEM_LOG_LEVEL: oneOf(["debug", "info", "warn", "error"], "must be debug, info, warn or error"),
  TEAMMEM_FAULT_POINT: oneOf(FAULT_POINT_NAMES, `must be one of ${FAULT_POINT_NAMES.join(", ")} (tests only)`),
} satisfies Record<string, Reader<unknown>>;

type Variables = { [Name in keyof typeof readers]?: ReturnType<(typeof readers)[Name]> } & {
  /** Read as given: an explicitly empty value switches the private-memory view off; unset means "default". */
  TEAMMEM_CLAUDE_HOME?: string;
};

/** Every variable set (not blank) read by its reader, or the names and messages of those refused. */
function readVariables(env: Env): { variables: Variables; problems: { name: string; message: string }[] } {
  const variables: Record<string, unknown> = { TEAMMEM_CLAUDE_HOME: env.TEAMMEM_CLAUDE_HOME };
  const problems: { name: string; message: string }[] = [];
  for (const [name, read] of Object.entries(readers) as [string, Reader<unknown>][]) {
    const value = env[name]?.trim();
    if (!value) continue;
    try {
      variables[name] = read(value);
    } catch (error) {
      if (!(error instanceof InvalidVariable)) throw error;
      problems.push({ name, message: error.message });
    }
  }
  return { variables: variables as Variables, problems };
}

/** Reads and validates configuration; throws CONFIG_INVALID naming every bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const { variables: vars, problems } = readVariables(env);
  if (problems.length > 0) {
    throw new AppError("CONFIG_INVALID", `Invalid configuration: ${problems.map((problem) => `${problem.name} ${problem.message}`).join("; ")}.`, {
      details: { variables: problems.map((problem) => problem.name) },
    });
  }

  const dataDir = path.resolve(cwd, vars.TEAMMEM_DATA_DIR ?? ".teammem");
  const databaseUrl = vars.DATABASE_URL ?? `file:${path.join(dataDir, "teammem.db")}`;
  const databaseKind = databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";
  const isEmbeddedStore = vars.TEAMMEM_STORE_REMOTE === undefined;
  const isEmbedded = isEmbeddedStore && databaseKind === "sqlite";
  const host = vars.HOST ?? "127.0.0.1";
  const port = vars.PORT ?? 3000;
  const claudeHome = resolveClaudeHome(vars.TEAMMEM_CLAUDE_HOME, dataDir, isEmbedded, cwd);
  const isDemoHome = claudeHome === demoClaudeHome(dataDir);

  return {
    dataDir,
    databaseUrl,
    databaseKind,
    sqliteFile: databaseKind === "sqlite" ? sqliteFileFromUrl(databaseUrl, cwd) : null,
    storeRemote: resolveStoreRemote(vars.TEAMMEM_STORE_REMOTE, dataDir, cwd),
    isEmbeddedStore,
    storeCloneDir: path.join(dataDir, "store-clone"),
    claudeHome,
    isDemoEnabled: vars.TEAMMEM_DEMO ?? isEmbedded,
    anthropicApiKey: vars.ANTHROPIC_API_KEY ?? null,
    anthropicBaseUrl: vars.ANTHROPIC_BASE_URL ?? null,
    recallModel: vars.TEAMMEM_RECALL_MODEL ?? DEFAULT_RECALL_MODEL,
    extractionModel: vars.TEAMMEM_EXTRACTION_MODEL ?? vars.TEAMMEM_RECALL_MODEL ?? DEFAULT_RECALL_MODEL,
    extractionTimeoutMs: vars.TEAMMEM_EXTRACTION_TIMEOUT_MS ?? 60_000,
    shareSyncEvidence: vars.TEAMMEM_SHARE_SYNC_EVIDENCE ?? false,
    codeCheckIntervalMinutes: vars.TEAMMEM_CODE_CHECK_INTERVAL_MINUTES ?? 15,
    host,
    port,
    publicUrl: (vars.TEAMMEM_PUBLIC_URL ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`).replace(/\/$/, ""),
    authSecret: vars.TEAMMEM_AUTH_SECRET ?? null,
    adminEmail: (vars.TEAMMEM_ADMIN_EMAIL ?? "admin@teammem.local").toLowerCase(),
    initialPassword: vars.TEAMMEM_INITIAL_PASSWORD ?? null,
    signInAttemptsPerMinute: vars.TEAMMEM_SIGN_IN_LIMIT ?? 5,
    isBehindProxy: vars.TEAMMEM_BEHIND_PROXY ?? false,
    // The demo home belongs to the demo member Omar; any other home needs its owner named.
    claudeHomeOwner: (vars.TEAMMEM_CLAUDE_HOME_OWNER ?? (isDemoHome ? DEMO_HOME_OWNER_EMAIL : undefined))?.toLowerCase() ?? null,
    cliToken: vars.TEAMMEM_TOKEN ?? null,
    cliServer: vars.TEAMMEM_SERVER?.replace(/\/$/, "") ?? null,
    cliConfigDir: path.join(vars.XDG_CONFIG_HOME ? path.resolve(cwd, vars.XDG_CONFIG_HOME) : path.join(os.homedir(), ".config"), "teammem"),
    claudeCodeEnv: { CLAUDE_CONFIG_DIR: vars.CLAUDE_CONFIG_DIR, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: vars.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE },
    homeDir: os.homedir(),
    logLevel: vars.TEAMMEM_LOG_LEVEL ?? "info",
    admission: {
      maxInFlight: {
        read: vars.TEAMMEM_MAX_IN_FLIGHT_READ ?? 8,
        recall: vars.TEAMMEM_MAX_IN_FLIGHT_RECALL ?? 4,
        write: vars.TEAMMEM_MAX_IN_FLIGHT_WRITE ?? 4,
        // Approvals queue on the store lock anyway; more in flight lets them share its turns.
        approve: vars.TEAMMEM_MAX_IN_FLIGHT_APPROVE ?? 8,
        auth: vars.TEAMMEM_MAX_IN_FLIGHT_AUTH ?? 4,
      },
      maxQueued: vars.TEAMMEM_MAX_QUEUED ?? 16,
      maxWaitMs: vars.TEAMMEM_MAX_QUEUE_WAIT_MS ?? 5_000,
    },
    catchUpWaitMs: vars.TEAMMEM_CATCH_UP_WAIT_MS ?? 2_000,
    faultPoint: vars.TEAMMEM_FAULT_POINT ?? null,
  };
}

/** The demo member whose Claude home the embedded mode shows (lib/demo/demo-team.ts: omar). */
export const DEMO_HOME_OWNER_EMAIL = "omar@acme.example";

/** Where the demo member's Claude Code config home lives inside the data folder. */
export function demoClaudeHome(dataDir: string): string {
  return path.join(dataDir, "demo-home", ".claude");
}

function sqliteFileFromUrl(databaseUrl: string, cwd: string): string {
  const filePath = databaseUrl.slice("file:".length).replace(/\?.*$/, "");
  return path.resolve(cwd, filePath);
}

// A git URL (scp-like user@host:path or scheme://) stays as given; a plain path is made absolute
// so a clone made from any working directory points at the same repository.
function resolveStoreRemote(remote: string | undefined, dataDir: string, cwd: string): string {
  if (remote === undefined) return path.join(dataDir, "store.git");
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/\\]+@[^:]+:/.test(remote);
  return isUrl ? remote : path.resolve(cwd, remote);
}

function resolveClaudeHome(
  value: string | undefined,
  dataDir: string,
  isEmbedded: boolean,
  cwd: string,
): string | null {
  if (value === undefined) return isEmbedded ? demoClaudeHome(dataDir) : null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  // Shells expand ~ but .env files and service managers do not.
  if (trimmed === "~" || trimmed.startsWith("~/")) return path.join(os.homedir(), trimmed.slice(1));
  return path.resolve(cwd, trimmed);
}

/**
 * The environment for a child process teammem starts (git, the Prisma CLI): the current one plus
 * the given overrides. Lives here because this is the one module that reads process.env.
 */
export function childProcessEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
