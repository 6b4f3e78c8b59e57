import { z } from "zod";
import { SIGN_IN_PATH } from "@/lib/auth/auth";
import { AppError } from "@/lib/errors";
import { toTeammemAuthAnswer } from "../../../_server/auth-answer";
import { checkedJsonRequest } from "../../../_server/body";
import { access, route } from "../../../_server/guard";
import { getAuth } from "../../../_server/context";
import { otherMethodsThan } from "../../../_server/other-methods";

// The fields better-auth's email sign-in reads (its signInEmail body). It drops any other field
// unread, so an unknown one is refused here by name, as on every other route; their values are
// better-auth's to check.
const SignInFields = z
  .object({ email: z.unknown().optional(), password: z.unknown().optional(), rememberMe: z.unknown().optional(), callbackURL: z.unknown().optional() })
  .strict();

// The better-auth endpoints the dashboard uses. Every other one it serves stays closed: its
// update-user let anyone put a credential in their account name (shown to every member of
// their projects) past the rules accounts get on the Settings page and `teammem users`.
const OPEN_ENDPOINTS = new Set([SIGN_IN_PATH, "/sign-out", "/get-session", "/change-password", "/ok"]);

// Sign-in (rate limited), sign-out, session, password change. Public by nature. The body is
// checked first as every other route's is: better-auth answers a lone surrogate in a JSON string
// (the database refuses it) with an empty 500. Its refusals are answered in teammem's error shape.
const delegate = route(access.public, async ({ request }) => {
  const endpoint = new URL(request.url).pathname.replace(/^\/api\/auth/, "").replace(/\/$/, "");
  if (!OPEN_ENDPOINTS.has(endpoint)) throw new AppError("NOT_FOUND", "There is no such API endpoint; README.md lists them.");
  const fields = endpoint === SIGN_IN_PATH ? SignInFields : undefined;
  return toTeammemAuthAnswer(await (await getAuth()).handler(await checkedJsonRequest(request, fields)), request);
});

export const GET = delegate;
export const POST = delegate;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
