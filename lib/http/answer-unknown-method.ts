import type { IncomingMessage, ServerResponse } from "node:http";
import { FRAME_DENY_HEADERS } from "./frame-deny-headers";

/** The methods Next.js hands to a route handler or a page. */
const NEXT_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The methods an API path's route takes (`["GET", "POST"]`), or null when no route serves it. */
export type ApiRouteMethodsOf = (pathname: string) => Promise<string[] | null>;

const NO_ENDPOINT = "There is no such API endpoint; README.md lists them.";
const PAGE_METHODS = ["GET", "HEAD"];

/**
 * Answers a request whose method Next.js does not dispatch (TRACE, PROPFIND, PURGE, LOCK, …) as a
 * method a route does not take is answered (README "API"): 405 naming the methods the path takes,
 * also in `Allow`; JSON on /api/ paths (404 for a path no route serves), a short page elsewhere.
 * Returns null for every other method, leaving the request to the app. Next.js refused these
 * before any route ran: TRACE with a plain-text 500, the others with an empty 400.
 */
export function answerUnknownMethod(incoming: IncomingMessage, outgoing: ServerResponse, methodsOf: ApiRouteMethodsOf): Promise<void> | null {
  const method = incoming.method ?? "";
  if (NEXT_METHODS.has(method)) return null;
  // Node's parser takes only the methods it knows: naming it echoes nothing a caller chose freely.
  const pathname = (incoming.url ?? "/").split("?")[0]!;
  return answer(outgoing, method, pathname, methodsOf).catch(() => {
    if (!outgoing.headersSent) send(outgoing, 500, {}, "application/json", JSON.stringify({ error: { code: "INTERNAL", message: "Something went wrong on the server." } }));
  });
}

async function answer(outgoing: ServerResponse, method: string, pathname: string, methodsOf: ApiRouteMethodsOf): Promise<void> {
  if (!pathname.startsWith("/api/")) {
    const allow = allowHeader(PAGE_METHODS);
    send(outgoing, 405, { allow }, "text/html; charset=utf-8", `<!doctype html><title>Method not allowed</title><p>${method} is not supported here: pages take GET.</p>`);
    return;
  }
  const taken = await methodsOf(pathname);
  if (!taken) {
    send(outgoing, 404, {}, "application/json", JSON.stringify({ error: { code: "NOT_FOUND", message: NO_ENDPOINT } }));
    return;
  }
  const message = `${method} is not supported here: this endpoint takes ${taken.join(", ")}.`;
  send(outgoing, 405, { allow: allowHeader(taken) }, "application/json", JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message } }));
}

/** As app/_server/other-methods.ts words it: HEAD with GET, OPTIONS always, sorted. */
function allowHeader(taken: string[]): string {
  return [...new Set([...taken, ...(taken.includes("GET") ? ["HEAD"] : []), "OPTIONS"])].sort().join(", ");
}

function send(outgoing: ServerResponse, status: number, extra: Record<string, string>, contentType: string, body: string): void {
  const headers: Record<string, string> = { "content-type": contentType, "cache-control": "no-store", ...extra };
  for (const { key, value } of FRAME_DENY_HEADERS) headers[key.toLowerCase()] = value;
  outgoing.writeHead(status, headers).end(body);
}
