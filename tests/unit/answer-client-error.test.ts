import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerClientError } from "@/lib/http/answer-client-error";

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

// The production server's wiring (scripts/serve.ts): its clientError handler in front of an app.
async function serve(): Promise<number> {
  server = createServer((_, outgoing) => outgoing.end("app"));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server!.address() as AddressInfo).port;
}

/** Sends raw bytes and reads everything until the server closes the connection. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += String(chunk)));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("a request Node's parser refuses", () => {
  it("an address over the header limit gets a JSON 431 saying to send a body instead", async () => {
    const port = await serve();
    const answer = await raw(port, `GET /api/projects?q=${"x".repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("JSON body") } });
  });

  it("a request that is not HTTP gets a JSON 400, and the server answers the next one", async () => {
    const port = await serve();
    const answer = await raw(port, "HELLO THERE\r\n\r\n");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("app");
  });
});
