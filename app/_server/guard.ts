import { createAdmissionGates } from "@/lib/admission/create-admission-gates";
import type { AdmissionGate } from "@/lib/admission/create-admission-gate";
import type { WorkKind } from "@/lib/admission/work-kinds";
import { assertAdmin, assertProjectPermission, type ProjectPermission } from "@/lib/auth/permissions";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
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

export type RouteOptions = {
  /** Which admission queue the route waits in; by default derived from its rule and method. */
  work?: WorkKind;
};

/**
 * Declares a route handler with its access rule: admits it within its kind's in-flight bound
 * (else 503 with Retry-After), resolves the caller (token or session), enforces the rule (project
 * routes take the project from the `id` path segment), checks the origin of cookie-authenticated
 * writes, and maps every error to a JSON response.
 */
export function route<P extends Params = Params>(rule: Access, handler: (context: RouteContext<P>) => Promise<Response>, options: RouteOptions = {}): GuardedHandler<P> {
  const guarded = async (request: Request, context: NextRouteContext<P>) => {
    const where = `${request.method} ${new URL(request.url).pathname}`;
    const work = options.work ?? workKindOf(rule, request);
    const decision = await admissionGates()[work].admit(request.signal);
    if (!decision.isAdmitted) return refusalResponse(decision, work, where, request);
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
      return errorResponse(error, where, request);
    } finally {
      decision.release();
    }
  };
  return Object.assign(guarded, { [ROUTE_ACCESS]: rule });
}

let gates: Record<WorkKind, AdmissionGate> | null = null;

function admissionGates(): Record<WorkKind, AdmissionGate> {
  gates ??= createAdmissionGates(getConfig().admission);
  return gates;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// Derived here so route files stay a rule and a handler: reviews are approvals, the recall
// endpoint is the agents' hot path, sign-in hashes passwords; the rest splits on the method.
function workKindOf(rule: Access, request: Request): WorkKind {
  const pathname = new URL(request.url).pathname;
  if (rule.kind === "public" && pathname.startsWith("/api/auth/")) return "auth";
  if (rule.kind === "project" && rule.permission === "review") return "approve";
  if (pathname.endsWith("/recall")) return "recall";
  return SAFE_METHODS.has(request.method) ? "read" : "write";
}

type Refusal = Extract<Awaited<ReturnType<AdmissionGate["admit"]>>, { isAdmitted: false }>;

function refusalResponse(refusal: Refusal, work: WorkKind, where: string, request: Request): Response {
  if (refusal.reason === "client_gone") return errorResponse(new AppError("SERVER_BUSY", "The client went away while waiting."), where, request);
  log("debug", "server_busy", { context: where, work, reason: refusal.reason });
  const busy = new AppError("SERVER_BUSY", `The server is busy; try again in ${refusal.retryAfterSeconds} s.`, { details: { retryAfterSeconds: refusal.retryAfterSeconds } });
  return errorResponse(busy, where, request);
}

const anonymous: Caller = { userId: "", email: "", name: "", isAdmin: false, via: "session", tokenProjectIds: [] };

// Cookies ride along on cross-site requests; a write with a session must come from our own pages.
function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(request.url).origin, new URL(getConfig().publicUrl).origin]);
  if (origin ? allowed.has(origin) : request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new AppError("FORBIDDEN", "Cross-site request refused: send writes from the teammem dashboard or with an API token.");
}
