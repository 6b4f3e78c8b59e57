import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerMalformedPath } from "@/lib/http/answer-malformed-path";

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

// The server's first step (scripts/serve.ts), with "app" standing in for Next.js behind it.
async function serve(): Promise<string> {
  server = createServer((incoming, outgoing) => {
    if (!answerMalformedPath(incoming, outgoing)) outgoing.writeHead(200, { "content-type": "text/plain" }).end("app");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("a path with a malformed %-escape", () => {
  it.each(["/api/projects/%FF", "/api/projects/%C0%AE%C0%AE", "/api/tokens/%", "/api/x/%E0%A4/y"])("%s gets a JSON 400 naming the problem", async (path) => {
    const answer = await fetch(`${await serve()}${path}`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
    expect(await answer.json()).toEqual({ error: { code: "INVALID_INPUT", message: expect.stringContaining("malformed %-escape") } });
  });

  it("on a page gets a 400 page; well-formed escapes and query strings go to the app", async () => {
    const base = await serve();
    const page = await fetch(`${base}/projects/%FF`);
    expect([page.status, page.headers.get("content-type")]).toEqual([400, "text/html; charset=utf-8"]);
    for (const path of ["/api/projects/a%20b", "/api/projects/%C3%BC", "/api/me?q=%FF", "/"]) expect(await (await fetch(`${base}${path}`)).text(), path).toBe("app");
  });
});
