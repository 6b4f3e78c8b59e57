import type { Duplex } from "node:stream";

/**
 * A request Node's parser refused before any route saw it (headers over Node's 16 KB limit, a
 * broken request line), answered as every API error is: JSON naming the problem. Node's own
 * answer was a bare status line with no body. A socket the client already closed is let go.
 * Wired to the server's `clientError` event (scripts/serve.ts).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const isTooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = isTooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const message = isTooLarge
    ? "The request's address and headers are too large (over 16 KB): send long input in a JSON body instead."
    : "The request could not be read as HTTP.";
  const body = JSON.stringify({ error: { code: isTooLarge ? "PAYLOAD_TOO_LARGE" : "INVALID_INPUT", message } });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
