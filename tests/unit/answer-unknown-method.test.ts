import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerUnknownMethod } from "@/lib/http/answer-unknown-method";

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

// The server's early step (scripts/serve.ts), with "app" standing in for Next.js behind it and a
// route table of two endpoints standing in for app/api.
const ROUTES: Record<string, string[]> = { "/api/health": ["GET"], "/api/projects/acme-checkout": ["GET", "PATCH"] };
async function serve(): Promise<number> {
  server = createServer((incoming, outgoing) => {
    const refusal = answerUnknownMethod(incoming, outgoing, async (pathname) => ROUTES[pathname] ?? null);
    if (!refusal) outgoing.writeHead(200, { "content-type": "text/plain" }).end("app");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server!.address() as AddressInfo).port;
}

// fetch() refuses to send TRACE at all (a forbidden method), so the test speaks plain HTTP.
function send(port: number, method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path }, (answer) => {
      let body = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (body += chunk));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("a method Next.js does not dispatch", () => {
  it.each(["TRACE", "PROPFIND", "PURGE", "LOCK"])("%s on an API path gets a JSON 405 naming the methods the route takes, also in Allow", async (method) => {
    const port = await serve();
    for (const [path, taken, allow] of [["/api/health", "GET", "GET, HEAD, OPTIONS"], ["/api/projects/acme-checkout?x=1", "GET, PATCH", "GET, HEAD, OPTIONS, PATCH"]] as const) {
      const answer = await send(port, method, path);
      expect([answer.status, answer.headers["content-type"], answer.headers.allow], `${method} ${path}`).toEqual([405, "application/json", allow]);
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(JSON.parse(answer.body)).toEqual({ error: { code: "METHOD_NOT_ALLOWED", message: `${method} is not supported here: this endpoint takes ${taken}.` } });
    }
  });

  it("on an API path no route serves is the JSON 404 every method gets there; on a page a 405 page", async () => {
    const port = await serve();
    const nowhere = await send(port, "TRACE", "/api/nope");
    expect([nowhere.status, JSON.parse(nowhere.body)]).toEqual([404, { error: { code: "NOT_FOUND", message: "There is no such API endpoint; README.md lists them." } }]);
    const page = await send(port, "TRACE", "/projects");
    expect([page.status, page.headers["content-type"], page.headers.allow]).toEqual([405, "text/html; charset=utf-8", "GET, HEAD, OPTIONS"]);
  });

  it("leaves every method Next.js dispatches to the app", async () => {
    const port = await serve();
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect((await send(port, method, "/api/health")).status, method).toBe(200);
  });
});
