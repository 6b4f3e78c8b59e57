/** The origin route tests call from; the app's own, so the same-origin check lets them through. */
export const TEST_ORIGIN = "http://127.0.0.1:3000";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteCall = { path: string; method?: string; params?: Record<string, string>; body?: unknown; token?: string; cookie?: string };

/**
 * One request to a route handler in-process, as Next.js would hand it over: a token
 * (`Authorization: Bearer`) or a session cookie, JSON in and out. `T` is the answer's shape.
 */
export async function callRoute<T>(handler: unknown, call: RouteCall): Promise<{ status: number; body: T }> {
  const headers = new Headers({ origin: TEST_ORIGIN, "x-forwarded-for": "192.0.2.90" });
  if (call.token) headers.set("authorization", `Bearer ${call.token}`);
  if (call.cookie) headers.set("cookie", call.cookie);
  if (call.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(TEST_ORIGIN + call.path, { method: call.method ?? (call.body === undefined ? "GET" : "POST"), headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
  const response = await (handler as Handler)(request, { params: Promise.resolve(call.params ?? {}) });
  return { status: response.status, body: (await response.json()) as T };
}
