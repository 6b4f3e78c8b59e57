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
import { createServer } from "node:http";
import path from "node:path";

// Before Next.js or React load: they read it once.
(process.env as Record<string, string>).NODE_ENV = "production";
const root = path.resolve(import.meta.dirname, "..");
const { loadConfig } = await import("../lib/config");
const { serveWebHandler } = await import("../lib/http/serve-web-handler");
const { MAX_BODY_BYTES } = await import("../app/_server/body");
const { POST: recall } = await import("../app/api/projects/[id]/recall/route");
const { flushAllRecallLogs } = await import("../lib/recall/recall-log");
const { default: next } = await import("next");

const config = loadConfig();
const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
const handleWithNext = app.getRequestHandler();
await app.prepare();

const RECALL_PATH = /^\/api\/projects\/([^/?]+)\/recall(?:\?.*)?$/;

const server = createServer((incoming, outgoing) => {
  const recallOf = incoming.method === "POST" ? recallRequest(incoming.url ?? "", incoming.headers.host) : null;
  const answered = recallOf
    ? serveWebHandler(incoming, outgoing, (request) => recall(request, { params: Promise.resolve({ id: recallOf.projectId }) }), { url: recallOf.url, maxBodyBytes: MAX_BODY_BYTES })
    : handleWithNext(incoming, outgoing);
  answered.catch((error: unknown) => {
    // The route maps its own errors to answers; this is a failure around it (a broken socket).
    console.error(JSON.stringify({ at: new Date().toISOString(), level: "error", event: "request_failed", name: (error as Error)?.name ?? "unknown" }));
    if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "application/json" }).end('{"error":{"code":"INTERNAL","message":"Something went wrong on the server."}}');
    else outgoing.destroy();
  });
});

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

server.listen(config.port, config.host, () => console.log(`teammem: ready on http://${config.host}:${config.port}`));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    // Open keep-alive connections must not hold the process: what is in flight gets 5 s.
    setTimeout(() => process.exit(0), 5_000).unref();
    void Promise.allSettled([app.close(), flushAllRecallLogs()]).finally(() => process.exit(0));
  });
}
