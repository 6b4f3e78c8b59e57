import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peekStoreGains } from "@/lib/sync/peek-store-gains";
import { fetchSyncAnswer } from "@/lib/sync/sync-api";

// A server whose sync answer lists 1,500 pages: what a peek of one file a page gets once the
// store changed 1,500 memories since the member's last sync.
const HEAD = "a".repeat(40);
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const query = new URL(request.url ?? "/", "http://x").searchParams;
    const page = Number(query.get("page"));
    const answer = { projectId: "p", head: HEAD, since: null, isUnchanged: false, full: true, files: [], removed: [], page, pageCount: 1_500, changedMemories: 1_500, proposals: [] };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("teammem status's peek of the store", () => {
  it("counts a store that gained more memories than a sync would walk pages for; a walk through that many pages is still refused", async () => {
    const target = { server: base, token: "tm_test" };
    const { gains } = await peekStoreGains(target, { projectId: "p", since: null, proposalIds: [], clientVersion: "test" });
    expect(gains).toEqual({ changed: 1_500, removed: 0 });
    await expect(fetchSyncAnswer(target, { projectId: "p", since: null, proposalIds: [], clientVersion: "test" })).rejects.toMatchObject({ code: "SERVER_UNAVAILABLE" });
  });
});
