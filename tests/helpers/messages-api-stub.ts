/**
 * A local HTTP server that speaks enough of the Anthropic Messages API for the real SDK to talk to
 * it (stack.md section 6): POST /v1/messages answers with a message whose one text block is the
 * reply's text. Each test starts its own on 127.0.0.1, port 0, and reads back what it received.
 * It asks for no particular auth header (the SDK sends `Authorization: Bearer`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StubReply =
  /** A 200 message whose text block holds `text` (JSON or not, as the test wants). */
  | { kind: "text"; text: string }
  /** An error status with an API-style error body. */
  | { kind: "status"; status: number }
  /** Exactly this body (a proxy's HTML page, `{}`, a 429 with Retry-After), for answers that are no Messages API message. */
  | { kind: "raw"; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  /** Never answers; the client has to give up. */
  | { kind: "hang" }
  /** A 200 message asking for tool calls (stop_reason tool_use), for tool-using callers. */
  | { kind: "tool_use"; calls: { name: string; input: Record<string, unknown> }[] };

export type ReceivedRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: unknown };

export type MessagesApiStub = {
  baseUrl: string;
  requests: ReceivedRequest[];
  close: () => Promise<void>;
};

/** Replies in order; the last one repeats (so retries of a 500 see a 500 again). */
export async function startMessagesApiStub(...replies: StubReply[]): Promise<MessagesApiStub> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: raw ? JSON.parse(raw) : null });
    if (request.method !== "POST" || !request.url?.startsWith("/v1/messages")) return send(response, 404, apiError("not_found_error", "unknown path"));
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { kind: "text", text: '{"selected_memories":[]}' };
    if (reply.kind === "hang") return;
    if (reply.kind === "raw") {
      response.writeHead(reply.status, { "content-type": reply.contentType ?? "application/json", ...reply.headers });
      return void response.end(reply.body);
    }
    if (reply.kind === "status") return send(response, reply.status, apiError("api_error", "stubbed failure"));
    if (reply.kind === "tool_use") return send(response, 200, toolUseMessage(reply.calls, modelOf(requests.at(-1)?.body), requests.length));
    send(response, 200, message(reply.text, modelOf(requests.at(-1)?.body)));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // a hanging reply keeps its socket open otherwise
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "request-id": "req_stub_01" });
  response.end(JSON.stringify(body));
}

function modelOf(body: unknown): string {
  return typeof body === "object" && body !== null && "model" in body && typeof body.model === "string" ? body.model : "unknown";
}

function apiError(type: string, text: string): unknown {
  return { type: "error", error: { type, message: text } };
}

function toolUseMessage(calls: { name: string; input: Record<string, unknown> }[], model: string, turn: number): unknown {
  const content = calls.map((call, index) => ({ type: "tool_use", id: `toolu_stub_${turn}_${index}`, name: call.name, input: call.input, caller: { type: "direct" } }));
  return { ...(message("", model) as object), content, stop_reason: "tool_use" };
}

function message(text: string, model: string): unknown {
  return {
    id: "msg_stub_01",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text, citations: null }],
    stop_reason: "end_turn",
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      input_tokens: 12,
      output_tokens: 9,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    },
  };
}
