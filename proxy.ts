import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/auth";

// Optimistic redirect for pages only: without a session cookie, go to sign-in. The real check
// (is the session valid, which role) happens in every page and route handler.
export function proxy(request: NextRequest) {
  const hasSessionCookie = SESSION_COOKIE_NAMES.some((name) => request.cookies.has(name));
  if (hasSessionCookie) return NextResponse.next();
  const signIn = new URL("/sign-in", request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== "/") signIn.searchParams.set("next", next);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Everything except the API (it answers 401 itself), sign-in, and static assets.
  matcher: ["/((?!api/|sign-in|_next/|favicon.ico|robots.txt|brand/).*)"],
};
