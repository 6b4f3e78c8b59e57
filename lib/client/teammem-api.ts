import { request as httpRequest, type IncomingMessage } from "node:http";
import { AppError, ERROR_CODES, type ErrorCode } from "../errors";
import { parseJsonOrNull } from "../parse-json";

export type ApiTarget = { server: string; token: string };

const TIMEOUT_MS = 15_000;

/**
 * The one module through which the CLI talks to a teammem server. Errors come back as the
 * server's AppError (code and one-line message); a network failure names the address to check.
 *
 * It speaks node:http(s) rather than the global fetch: loading fetch's HTTP client costs every
 * process ~50-100 ms before the first byte is sent, and the prompt hook and `teammem sync --quiet`
 * run at every prompt and session start.
 */
export async function callTeammemApi<T>(target: ApiTarget, method: string, apiPath: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<T> {
  // A caller with a budget of its own (the prompt hook) passes its signal; the default cap stays.
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);
  let response: { status: number; text: string };
  try {
    response = await send(new URL(apiPath, target.server), method, target.token, body === undefined ? undefined : JSON.stringify(body), signal);
  } catch (cause) {
    throw new AppError("SERVER_UNAVAILABLE", `Could not reach the teammem server at ${target.server}: check that it is running, or name the right address with \`teammem login --server URL\` or TEAMMEM_SERVER.`, { cause });
  }
  const payload = parseJsonOrNull(response.text) as { error?: { code?: string; message?: string } } | null;
  if (response.status >= 200 && response.status < 300) return payload as T;
  const code = ERROR_CODES.includes(payload?.error?.code as ErrorCode) ? (payload!.error!.code as ErrorCode) : "INTERNAL";
  throw new AppError(code, printable(payload?.error?.message) ?? `The server answered ${response.status}.`);
}

/** A server's message is printed on a member's terminal: no control or formatting characters (escape sequences). */
function printable(message: unknown): string | null {
  return typeof message === "string" ? message.replace(/[\p{Cc}\p{Cf}]+/gu, " ").slice(0, 2_000) : null;
}

async function send(url: URL, method: string, token: string, body: string | undefined, signal: AbortSignal): Promise<{ status: number; text: string }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`unsupported protocol ${url.protocol}`);
  // TLS loads only for an https server (~7 ms of every prompt hook otherwise).
  const request = url.protocol === "https:" ? (await import("node:https")).request : httpRequest;
  const headers: Record<string, string | number> = { authorization: `Bearer ${token}`, accept: "application/json" };
  if (body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, signal }, (incoming: IncomingMessage) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
