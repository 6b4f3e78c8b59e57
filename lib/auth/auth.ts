import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import type { Config } from "../config";
import type { Db } from "../db/client";

export type AuthOptions = { config: Config; db: Db; secret: string };

/**
 * The one better-auth instance: email + password (hashing, sessions, CSRF-safe cookies and
 * sign-in rate limits are the library's). Sign-up is closed: admins create accounts.
 */
export function createAuth({ config, db, secret }: AuthOptions) {
  const isHttps = config.publicUrl.startsWith("https://");
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
      customRules: { "/sign-in/email": { window: 60, max: config.signInAttemptsPerMinute } },
    },
    advanced: {
      useSecureCookies: isHttps,
      cookiePrefix: "teammem",
      // Behind no proxy by default; the Next server sets x-forwarded-for from the socket.
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The name of the session cookie, for the optimistic redirect in the Next proxy. */
export const SESSION_COOKIE_NAMES = ["teammem.session_token", "__Secure-teammem.session_token"];
