import type { IncomingMessage } from "node:http";

/**
 * Sets X-Forwarded-For to the one client address the server believes, before any route reads
 * it (better-auth's sign-in limit per address does). Behind no proxy that is the connection's
 * address: a header the client sent chose its own rate-limit bucket, so each request could
 * claim a fresh one. Behind a proxy (`TEAMMEM_BEHIND_PROXY`) it is the last address the proxy
 * appended; whatever the client wrote before it is dropped.
 */
export function setTrustedClientAddress(incoming: IncomingMessage, isBehindProxy: boolean): void {
  const sent = incoming.headers["x-forwarded-for"];
  const appended = isBehindProxy ? lastAddressOf(Array.isArray(sent) ? sent.join(",") : sent) : null;
  const address = appended ?? incoming.socket.remoteAddress;
  if (address) incoming.headers["x-forwarded-for"] = address;
  else delete incoming.headers["x-forwarded-for"];
}

function lastAddressOf(header: string | undefined): string | null {
  const last = header?.split(",").at(-1)?.trim();
  return last ? last : null;
}
