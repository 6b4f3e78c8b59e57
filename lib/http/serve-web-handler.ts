import type { IncomingMessage, ServerResponse } from "node:http";
import { FRAME_DENY_HEADERS } from "./frame-deny-headers";

/** A route handler as the app declares it: a web Request in, a web Response out. */
export type WebHandler = (request: Request) => Promise<Response>;

export type ServeOptions = {
  /** The request's absolute URL (origin checks compare with it). */
  url: URL;
  /**
   * Bytes of body read before the handler sees it. The handler enforces its own cap; reading one
   * byte past it is enough for the handler to refuse, and the rest is never buffered.
   */
  maxBodyBytes: number;
};

/**
 * Answers a Node request with a web-standard handler, with nothing in between: the route modules
 * (app/api/…) are web handlers, and Next.js's own path from a Node request to one (routing,
 * rendering context, streams) costs more than the agents' recall itself (docs/benchmarks.md,
 * "A recall without Next.js in the way"). The handler's signal aborts when the client goes away
 * before its answer is written, as under Next.js, so admission control and the `client_gone` log
 * behave the same.
 */
export async function serveWebHandler(incoming: IncomingMessage, outgoing: ServerResponse, handler: WebHandler, options: ServeOptions): Promise<void> {
  const gone = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) gone.abort();
  });
  const { body, isCut } = await readBody(incoming, options.maxBodyBytes + 1);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(options.url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined, signal: gone.signal });
  const response = await handler(request);
  const answer = Buffer.from(await response.arrayBuffer());
  if (outgoing.destroyed) return;
  const out: Record<string, string | string[]> = {};
  // What Next.js adds to every response it serves (next.config.ts), added here too.
  for (const { key, value } of FRAME_DENY_HEADERS) out[key.toLowerCase()] = value;
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  out["content-length"] = String(answer.length);
  // A body left unread on the socket would be taken for the next request: close instead.
  if (isCut) out.connection = "close";
  outgoing.writeHead(response.status, out);
  outgoing.end(answer);
}

/** The body, or its first `limit` bytes when it is longer (the rest is left unread). */
function readBody(incoming: IncomingMessage, limit: number): Promise<{ body: Buffer; isCut: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (isCut: boolean) => {
      incoming.off("data", onData);
      resolve({ body: Buffer.concat(chunks).subarray(0, limit), isCut });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= limit) {
        incoming.pause();
        finish(true);
      }
    };
    incoming.on("data", onData);
    incoming.on("end", () => finish(false));
    // A client that breaks the connection mid-body: the handler sees a cut body and an aborted signal.
    incoming.on("error", () => finish(true));
  });
}
