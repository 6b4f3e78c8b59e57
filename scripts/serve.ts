/**
 * The production HTTP server (`npm start` runs it through scripts/start.ts; `next start` is not
 * used): Next.js's request handler serves the dashboard and the API, except the agents' hot
 * path. `POST /api/projects/:id/recall`, sent before every prompt of every member, goes straight
 * to the same route module, a web handler, without Next.js's rendering pipeline in front of it:
 * on a 2-core machine that pipeline cost more than the recall (docs/benchmarks.md, "A recall
 * without Next.js in the way"). The route is the same code either way: same guard, admission
 * control, validation and answer.
 *
 * Run: node --import tsx scripts/serve.ts   (HOST, PORT and the rest from lib/config.ts)
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { answerClientError } from "../lib/http/answer-client-error";

// Before Next.js or React load: they read it once.
(process.env as Record<string, string>).NODE_ENV = "production";
const root = path.resolve(import.meta.dirname, "..");
const { loadConfig } = await import("../lib/config");
const config = loadConfig();

type Handle = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<unknown>;
let startServing: (handle: Handle) => void = () => {};
const handler = new Promise<Handle>((resolve) => (startServing = resolve));

// Requests that arrive while Next.js prepares wait for it.
const server = createServer((incoming, outgoing) => {
  handler.then((handle) => handle(incoming, outgoing)).catch((error: unknown) => {
    // The route maps its own errors to answers; this is a failure around it (a broken socket).
    console.error(JSON.stringify({ at: new Date().toISOString(), level: "error", event: "request_failed", name: (error as Error)?.name ?? "unknown" }));
    if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "application/json" }).end('{"error":{"code":"INTERNAL","message":"Something went wrong on the server."}}');
    else outgoing.destroy();
  });
});

server.on("clientError", answerClientError);

// Listening comes first: a taken port or a HOST that is not this machine's is said in one line
// (and a non-zero exit for the supervisor) at once, not as an uncaught exception after Next.js loaded.
await new Promise<void>((resolve) => {
  const refuse = (error: NodeJS.ErrnoException) => {
    console.error(`teammem: ${cannotListen(error)}`);
    process.exit(1);
  };
  server.once("error", refuse);
  server.listen(config.port, config.host, () => {
    server.off("error", refuse);
    resolve();
  });
});

const { serveWebHandler } = await import("../lib/http/serve-web-handler");
const { answerMalformedPath } = await import("../lib/http/answer-malformed-path");
const { answerUnknownMethod } = await import("../lib/http/answer-unknown-method");
const { setTrustedClientAddress } = await import("../lib/http/client-address");
const { createApiRouteMethods } = await import("../app/_server/api-route-methods");
const { MAX_BODY_BYTES } = await import("../app/_server/body");
const { POST: recall } = await import("../app/api/projects/[id]/recall/route");
const { flushAllRecallLogs } = await import("../lib/recall/recall-log");
const { default: next } = await import("next");

const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
const handleWithNext = app.getRequestHandler();
await app.prepare();

const RECALL_PATH = /^\/api\/projects\/([^/?]+)\/recall(?:\?.*)?$/;
// TRACE, PROPFIND, …: Next.js refuses them before any route runs (a 500, an empty 400).
const apiRouteMethodsOf = createApiRouteMethods(path.join(root, "app", "api"));

startServing((incoming, outgoing) => {
  setTrustedClientAddress(incoming, config.isBehindProxy);
  if (answerMalformedPath(incoming, outgoing)) return Promise.resolve();
  const methodRefusal = answerUnknownMethod(incoming, outgoing, apiRouteMethodsOf);
  if (methodRefusal) return methodRefusal;
  const recallOf = incoming.method === "POST" ? recallRequest(incoming.url ?? "", incoming.headers.host) : null;
  return recallOf
    ? serveWebHandler(incoming, outgoing, (request) => recall(request, { params: Promise.resolve({ id: recallOf.projectId }) }), { url: recallOf.url, maxBodyBytes: MAX_BODY_BYTES })
    : handleWithNext(incoming, outgoing);
});
console.log(`teammem: ready on http://${config.host}:${config.port}`);

/**
 * The project of a recall request, or null to leave the request to Next.js: anything it would
 * answer differently (a trailing slash, a project id that is not valid percent-encoding, a Host
 * that is not a host) goes its way.
 */
function recallRequest(rawUrl: string, host: string | undefined): { projectId: string; url: URL } | null {
  const match = RECALL_PATH.exec(rawUrl);
  if (!match) return null;
  try {
    const url = new URL(rawUrl, `http://${host ?? `${config.host}:${config.port}`}`);
    return url.pathname === rawUrl.split("?")[0] ? { projectId: decodeURIComponent(match[1]!), url } : null;
  } catch {
    return null;
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    // Open keep-alive connections must not hold the process: what is in flight gets 5 s.
    setTimeout(() => process.exit(0), 5_000).unref();
    void Promise.allSettled([app.close(), flushAllRecallLogs()]).finally(() => process.exit(0));
  });
}

/** What to change when the server cannot listen: the variable, never a stack. */
function cannotListen(error: NodeJS.ErrnoException): string {
  const address = `${config.host}:${config.port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `Port ${config.port} on ${config.host} is already in use: stop the program that uses it, or set PORT to a free port.`;
    case "EACCES":
      return `This user may not listen on ${address}: set PORT to 1024 or above.`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
      return `HOST=${config.host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1 for this machine only, 0.0.0.0 for every network).`;
    default:
      return `Cannot listen on ${address} (${error.code ?? "unknown error"}): check HOST and PORT.`;
  }
}
