import { assertAdmin, assertProjectPermission, type ProjectPermission } from "@/lib/auth/permissions";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { AppError } from "@/lib/errors";
import { getAuth, getConfig, getDatabase } from "./context";
import { errorResponse } from "./http";

/** Who may call a route. Every route handler declares one; a test fails on any that does not. */
export type Access =
  | { kind: "public" }
  | { kind: "signedIn" }
  | { kind: "admin" }
  | { kind: "project"; permission: ProjectPermission };

export const access = {
  public: { kind: "public" },
  signedIn: { kind: "signedIn" },
  admin: { kind: "admin" },
  project: (permission: ProjectPermission): Access => ({ kind: "project", permission }),
} satisfies Record<string, Access | ((permission: ProjectPermission) => Access)>;

export const ROUTE_ACCESS = Symbol.for("teammem.routeAccess");

type Params = Record<string, string | string[]>;
export type RouteContext<P extends Params> = { request: Request; caller: Caller; params: P };
type NextRouteContext<P extends Params> = { params: Promise<P> };
export type GuardedHandler<P extends Params> = ((request: Request, context: NextRouteContext<P>) => Promise<Response>) & { [ROUTE_ACCESS]: Access };

/**
 * Declares a route handler with its access rule: resolves the caller (token or session),
 * enforces the rule (project routes take the project from the `id` path segment), checks the
 * origin of cookie-authenticated writes, and maps every error to a JSON response.
 */
export function route<P extends Params = Params>(rule: Access, handler: (context: RouteContext<P>) => Promise<Response>): GuardedHandler<P> {
  const guarded = async (request: Request, context: NextRouteContext<P>) => {
    try {
      const params = (await context?.params) ?? ({} as P);
      if (rule.kind === "public") return await handler({ request, caller: anonymous, params });
      const caller = await resolveCaller(await getAuth(), getDatabase(), request.headers);
      if (!caller) throw new AppError("UNAUTHORIZED", "Sign in, or send an API token as `Authorization: Bearer tm_…`.");
      if (caller.via === "session") assertSameOrigin(request);
      if (rule.kind === "admin") assertAdmin(caller);
      if (rule.kind === "project") await assertProjectPermission(getDatabase(), caller, typeof params.id === "string" ? params.id : "", rule.permission);
      return await handler({ request, caller, params });
    } catch (error) {
      return errorResponse(error, `${request.method} ${new URL(request.url).pathname}`);
    }
  };
  return Object.assign(guarded, { [ROUTE_ACCESS]: rule });
}

const anonymous: Caller = { userId: "", email: "", name: "", isAdmin: false, via: "session", tokenProjectIds: [] };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// Cookies ride along on cross-site requests; a write with a session must come from our own pages.
function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(request.url).origin, new URL(getConfig().publicUrl).origin]);
  if (origin ? allowed.has(origin) : request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new AppError("FORBIDDEN", "Cross-site request refused: send writes from the teammem dashboard or with an API token.");
}
