import { AppError, ERROR_CODES, type ErrorCode } from "../errors";

export type ApiTarget = { server: string; token: string };

const TIMEOUT_MS = 15_000;

/**
 * The one module through which the CLI talks to a teammem server. Errors come back as the
 * server's AppError (code and one-line message); a network failure names the address to check.
 */
export async function callTeammemApi<T>(target: ApiTarget, method: string, apiPath: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  // A caller with a budget of its own (the prompt hook) passes its signal; the default cap stays.
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);
  try {
    response = await fetch(new URL(apiPath, target.server), {
      method,
      headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    throw new AppError("SERVER_UNAVAILABLE", `Could not reach the teammem server at ${target.server}: check that it is running, or name the right address with \`teammem login --server URL\` or TEAMMEM_SERVER.`, { cause });
  }
  const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (response.ok) return payload as T;
  const code = ERROR_CODES.includes(payload?.error?.code as ErrorCode) ? (payload!.error!.code as ErrorCode) : "INTERNAL";
  throw new AppError(code, payload?.error?.message ?? `The server answered ${response.status}.`);
}
