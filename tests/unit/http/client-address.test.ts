import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { setTrustedClientAddress } from "@/lib/http/client-address";

/** The X-Forwarded-For a route sees, over a real connection, for a request sending `sent`. */
async function seenAddress(isBehindProxy: boolean, sent: string | null): Promise<string | undefined> {
  const server = http.createServer((incoming, outgoing) => {
    setTrustedClientAddress(incoming, isBehindProxy);
    outgoing.end(JSON.stringify({ seen: incoming.headers["x-forwarded-for"] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: sent === null ? {} : { "x-forwarded-for": sent } });
    return ((await response.json()) as { seen: string | null }).seen ?? undefined;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the client address routes see (sign-in's limit per address)", () => {
  it("behind no proxy is the connection's: an X-Forwarded-For the client sent picks no bucket of its own", async () => {
    expect(await seenAddress(false, "10.9.9.9")).toBe("127.0.0.1");
    expect(await seenAddress(false, null)).toBe("127.0.0.1");
  });

  it("behind a proxy is the last address the proxy appended, never what the client wrote before it", async () => {
    expect(await seenAddress(true, "10.9.9.9, 203.0.113.7")).toBe("203.0.113.7");
    expect(await seenAddress(true, null)).toBe("127.0.0.1");
  });
});
