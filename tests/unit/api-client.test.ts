import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, fetchApi, SERVER_UNREACHABLE_MESSAGE } from "@/app/_components/api-client";

// The dashboard's forms call the API through these: a server that cannot be reached must read as
// that, with what to do, never as the browser's raw "Failed to fetch".
let server: Server;
let base = "";
let closedBase = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === "/refused" ? 403 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(request.url === "/refused" ? { error: { code: "FORBIDDEN", message: "Only a lead may do this." } } : { ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: open one, note it, close it.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
  closedBase = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  await new Promise((resolve) => gone.close(resolve));
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the dashboard's API client", () => {
  it("says the server could not be reached, and to try again, when nothing answers", async () => {
    await expect(callApi(`${closedBase}/api/projects/p/proposals/x/reject`, { method: "POST", body: { reason: "no" } })).rejects.toThrow(SERVER_UNREACHABLE_MESSAGE);
    await expect(fetchApi(`${closedBase}/api/auth/sign-in/email`, { method: "POST", body: {} })).rejects.toThrow(/Could not reach the teammem server.*try again/);
  });

  it("passes the server's own message through when it answers", async () => {
    await expect(callApi(`${base}/refused`, { method: "POST", body: {} })).rejects.toThrow("Only a lead may do this.");
    await expect(callApi(`${base}/fine`)).resolves.toEqual({ ok: true });
  });
});
