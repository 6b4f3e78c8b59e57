import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_BODY_BYTES, readJsonBody } from "@/app/_server/body";
import { errorResponse, json } from "@/app/_server/http";
import { serveWebHandler, type WebHandler } from "@/lib/http/serve-web-handler";

// The production server answers the agents' recall with the route module itself, through this
// adapter (scripts/serve.ts): what a client sees must be what the route answers.
let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: WebHandler): Promise<string> {
  server = createServer((incoming, outgoing) => {
    void serveWebHandler(incoming, outgoing, handler, { url: new URL(incoming.url ?? "/", `http://${incoming.headers.host}`), maxBodyBytes: MAX_BODY_BYTES });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const Input = z.object({ query: z.string().min(1) }).strict();
const echo: WebHandler = async (request) => {
  try {
    const { query } = await readJsonBody(request, Input);
    return json({ query, method: request.method, url: request.url, authorization: request.headers.get("authorization") }, 201);
  } catch (error) {
    return errorResponse(error, "test", request);
  }
};

describe("a web route handler served on Node's own HTTP server", () => {
  it("gets the method, URL, headers and JSON body, and its status, headers and answer reach the client", async () => {
    const base = await serve(echo);
    const response = await fetch(`${base}/api/projects/acme/recall?x=1`, { method: "POST", headers: { authorization: "Bearer tm_x", "content-type": "application/json" }, body: JSON.stringify({ query: "retry policy ü" }) });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    // As Next.js sends on every path (next.config.ts): the recall route served here is no exception.
    expect([response.headers.get("x-frame-options"), response.headers.get("content-security-policy")]).toEqual(["DENY", "frame-ancestors 'none'"]);
    expect(await response.json()).toEqual({ query: "retry policy ü", method: "POST", url: `${base}/api/projects/acme/recall?x=1`, authorization: "Bearer tm_x" });
  });

  it("answers the route's own errors: bad JSON, an unknown field, a body over the limit, and serves the next request", async () => {
    const base = await serve(echo);
    const post = (body: string) => fetch(`${base}/r`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(await (await post("{nope")).json()).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect((await post(JSON.stringify({ query: "q", extra: 1 }))).status).toBe(400);
    // Sent without a length, so only the bytes read can tell: refused after one byte past the limit.
    const huge = await sendChunked(`${base}/r`, JSON.stringify({ query: "x".repeat(MAX_BODY_BYTES * 2) }));
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
    expect((await post(JSON.stringify({ query: "after" }))).status).toBe(201);
  });

  it("aborts the handler's signal when the client goes away before the answer, as Next.js does", async () => {
    let aborted: () => void = () => {};
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    const base = await serve(async (request) => {
      await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve()));
      aborted();
      return errorResponse(new Error("late"), "test", request);
    });
    const gone = new AbortController();
    const call = fetch(`${base}/r`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", signal: gone.signal }).catch(() => null);
    setTimeout(() => gone.abort(), 100);
    await wasAborted;
    expect(await call).toBeNull();
  });
});

function sendChunked(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (incoming) => {
      let text = "";
      incoming.on("data", (chunk: Buffer) => (text += String(chunk)));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: text }));
    });
    // The server may close while the rest is still being sent: that is the point.
    outgoing.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    outgoing.end(body);
  });
}
