import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getIP, isAPIError } from "better-auth/api";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { createSignInFailureLimit, type SignInKeys } from "./limit-failed-sign-ins";

export type AuthOptions = { config: Config; db: Db; secret: string };

/**
 * The one better-auth instance: email + password (hashing, sessions, CSRF-safe cookies are the
 * library's; the sign-in limit counts failures only, see limit-failed-sign-ins.ts). Sign-up is
 * closed: admins create accounts.
 */
export function createAuth({ config, db, secret }: AuthOptions) {
  const isHttps = config.publicUrl.startsWith("https://");
  const failures = createSignInFailureLimit({ db, maxFailuresPerAccount: config.signInAttemptsPerMinute, windowSeconds: SIGN_IN_WINDOW_SECONDS });
  return betterAuth({
    appName: "teammem",
    baseURL: config.publicUrl,
    secret,
    trustedOrigins: [config.publicUrl],
    database: prismaAdapter(db, { provider: config.databaseKind === "postgresql" ? "postgresql" : "sqlite" }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    user: { additionalFields: { isAdmin: { type: "boolean", defaultValue: false, input: false } } },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      // In the database so every app instance shares one count.
      storage: "database",
      window: 60,
      max: 100,
      // Counting every sign-in (successes too) locked out people who switched accounts; the
      // hooks below count failures per account and per client instead.
      customRules: { [SIGN_IN_PATH]: false },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== SIGN_IN_PATH) return;
        const retryAfter = await failures.reserveAttempt(signInKeys(ctx));
        if (retryAfter === 0) return;
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { code: "TOO_MANY_FAILED_SIGN_INS", message: `Too many failed sign-ins. Try again in ${retryAfter} seconds.` },
          { "Retry-After": String(retryAfter), "X-Retry-After": String(retryAfter) },
        );
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== SIGN_IN_PATH) return;
        const returned = ctx.context.returned;
        const keys = signInKeys(ctx);
        // The attempt was counted as a failure before the check; a refusal that is no failure of
        // the password (429 from the limit itself stays counted) gives it back.
        if (isAPIError(returned) && (returned.statusCode === 401 || returned.statusCode === 429)) return;
        await failures.releaseAttempt(keys, { clearAccount: !isAPIError(returned) });
      }),
    },
    // Every line the library logs goes through lib/log.ts: one JSON line, redacted.
    logger: { level: config.logLevel, log: (level, message, ...args) => log(level, "auth", { message, details: args.map(describeLogArgument) }) },
    advanced: {
      useSecureCookies: isHttps,
      cookiePrefix: "teammem",
      // scripts/serve.ts sets x-forwarded-for to the one address it believes (lib/http/client-address.ts).
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

export const SIGN_IN_PATH = "/sign-in/email";
const SIGN_IN_WINDOW_SECONDS = 60;

type HookContext = { body?: unknown; request?: Request; headers?: Headers; context: { options: Parameters<typeof getIP>[1] } };

function signInKeys(ctx: HookContext): SignInKeys {
  const body = ctx.body as { email?: unknown } | undefined;
  const email = typeof body?.email === "string" && body.email.trim() !== "" ? body.email : null;
  const source = ctx.request ?? ctx.headers;
  return { email, clientIp: source ? getIP(source, ctx.context.options) : null };
}

// Errors do not serialise to JSON on their own, and their text may carry a secret that the
// redaction in log() then removes; objects pass as they are.
function describeLogArgument(argument: unknown): unknown {
  if (argument instanceof Error) return { name: argument.name, message: argument.message };
  if (argument === null || ["string", "number", "boolean"].includes(typeof argument)) return argument;
  try {
    return JSON.parse(JSON.stringify(argument)) as unknown;
  } catch {
    return String(argument);
  }
}

/** The name of the session cookie, for the optimistic redirect in the Next proxy. */
export const SESSION_COOKIE_NAMES = ["teammem.session_token", "__Secure-teammem.session_token"];
