import { z } from "zod";
import { SIGN_IN_PATH } from "@/lib/auth/auth";
import { AppError } from "@/lib/errors";
import { toTeammemAuthAnswer } from "../../../_server/auth-answer";
import { checkedJsonRequest } from "../../../_server/body";
import { access, route } from "../../../_server/guard";
import { getAuth } from "../../../_server/context";
import { errorResponse } from "../../../_server/http";
import { REFUSES_METHOD } from "../../../_server/other-methods";

// The fields better-auth's email sign-in reads (its signInEmail body). It drops any other field
// unread, so an unknown one is refused here by name, as on every other route; their values are
// better-auth's to check.
const SignInFields = z
  .object({ email: z.unknown().optional(), password: z.unknown().optional(), rememberMe: z.unknown().optional(), callbackURL: z.unknown().optional() })
  .strict();

// The better-auth endpoints the dashboard uses, with the one method each takes. Every other one
// it serves stays closed: its update-user let anyone put a credential in their account name
// (shown to every member of their projects) past the rules accounts get on the Settings page
// and `teammem users`.
const OPEN_ENDPOINTS = new Map<string, "GET" | "POST">([
  [SIGN_IN_PATH, "POST"],
  ["/sign-out", "POST"],
  ["/get-session", "GET"],
  ["/change-password", "POST"],
  ["/ok", "GET"],
]);

// Sign-in (rate limited), sign-out, session, password change. Public by nature. The body is
// checked first as every other route's is: better-auth answers a lone surrogate in a JSON string
// (the database refuses it) with an empty 500. Its refusals are answered in teammem's error shape.
const delegate = route(access.public, async ({ request }) => {
  const endpoint = endpointOf(request);
  const refusal = refuseUnlessTaken(request, endpoint);
  if (refusal) return refusal;
  const fields = endpoint === SIGN_IN_PATH ? SignInFields : undefined;
  return toTeammemAuthAnswer(await (await getAuth()).handler(await checkedJsonRequest(request, fields)), request);
});

export const GET = delegate;
export const POST = delegate;

// Refused per endpoint: `Allow` names the one method that endpoint takes, and a path that names
// no endpoint is a 404 whatever the method (OPTIONS included), as everywhere else.
const refuse = Object.assign(async (request: Request) => refuseUnlessTaken(request, endpointOf(request))!, { [REFUSES_METHOD]: true as const });
export const PUT = refuse;
export const PATCH = refuse;
export const DELETE = refuse;
export const OPTIONS = (request: Request): Response => {
  const method = OPEN_ENDPOINTS.get(endpointOf(request));
  if (!method) return errorResponse(notFound(), `OPTIONS ${new URL(request.url).pathname}`, request);
  return new Response(null, { status: 204, headers: { allow: allowOf(method) } });
};

function endpointOf(request: Request): string {
  return new URL(request.url).pathname.replace(/^\/api\/auth/, "").replace(/\/$/, "");
}

function notFound(): AppError {
  return new AppError("NOT_FOUND", "There is no such API endpoint; README.md lists them.");
}

function allowOf(method: "GET" | "POST"): string {
  return [method, ...(method === "GET" ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
}

/** A 404 for a path that names no endpoint, a 405 with `Allow` for a method its endpoint does not take, else null. */
function refuseUnlessTaken(request: Request, endpoint: string): Response | null {
  const method = OPEN_ENDPOINTS.get(endpoint);
  const context = `${request.method} ${new URL(request.url).pathname}`;
  if (!method) return errorResponse(notFound(), context, request);
  if (request.method === method || (method === "GET" && request.method === "HEAD")) return null;
  const response = errorResponse(new AppError("METHOD_NOT_ALLOWED", `${request.method} is not supported here: this endpoint takes ${method}.`), context, request);
  if (response.status === 405) response.headers.set("allow", allowOf(method));
  return response;
}
