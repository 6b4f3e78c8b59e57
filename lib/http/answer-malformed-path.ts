import type { IncomingMessage, ServerResponse } from "node:http";
import { FRAME_DENY_HEADERS } from "./frame-deny-headers";

const MESSAGE = "The address holds a malformed %-escape (not UTF-8): encode each character of the path once, as encodeURIComponent does.";

/**
 * Answers a request whose path cannot be decoded (`%FF`, a lone `%`, an overlong `%C0%AE`) with
 * 400, and returns true; false leaves the request to the app. Next.js threw on such a path and
 * answered 500 in plain text, before the API's JSON errors and the sign-in check.
 */
export function answerMalformedPath(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  const rawPath = (incoming.url ?? "/").split("?")[0]!;
  if (!rawPath.includes("%")) return false;
  try {
    decodeURIComponent(rawPath);
    return false;
  } catch {
    const isApi = rawPath.startsWith("/api/");
    const body = isApi ? JSON.stringify({ error: { code: "INVALID_INPUT", message: MESSAGE } }) : `<!doctype html><title>Bad address</title><p>${MESSAGE}</p>`;
    const headers: Record<string, string> = { "content-type": isApi ? "application/json" : "text/html; charset=utf-8", "cache-control": "no-store" };
    for (const { key, value } of FRAME_DENY_HEADERS) headers[key.toLowerCase()] = value;
    outgoing.writeHead(400, headers).end(body);
    return true;
  }
}
