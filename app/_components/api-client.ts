/**
 * What a person is told when a request never got an answer (server stopped, network down, a
 * proxy refusing): the browser's own words ("Failed to fetch", "NetworkError when attempting to
 * fetch resource.") say neither what happened nor what to do.
 */
export const SERVER_UNREACHABLE_MESSAGE =
  "Could not reach the teammem server: it may be stopped or your network may be down. Check the connection and try again (reload the page to see whether the change was made).";

/**
 * Every browser-side call to teammem's API goes through here, so a network failure reads the same
 * on every form. Throws an Error with SERVER_UNREACHABLE_MESSAGE when no answer came; an answer,
 * whatever its status, is returned for the caller to read.
 */
export async function fetchApi(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  try {
    return await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    // fetch rejects with a TypeError for every network failure; anything else (an abort) is the caller's.
    if (error instanceof TypeError) throw new Error(SERVER_UNREACHABLE_MESSAGE, { cause: error });
    throw error;
  }
}

/** Browser-side JSON calls to teammem's API; errors come back as the server's one-line message. */
export async function callApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetchApi(path, init);
  if (response.status === 204) return undefined as T;
  const payload = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!response.ok) throw new Error(payload?.error?.message ?? `The server answered ${response.status}.`);
  return payload as T;
}
