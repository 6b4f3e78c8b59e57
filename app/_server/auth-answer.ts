import { toAuthAppError } from "@/lib/http/auth-error";
import { errorResponse } from "./http";

// Set by better-auth for its own body; the shaped answer brings its own.
const BODY_HEADERS = new Set(["content-type", "content-length", "content-encoding"]);

/**
 * better-auth's answer as the client gets it: a success unchanged, a refusal in teammem's error
 * shape (`{error: {code, message}}`) keeping its other headers (Retry-After, cleared cookies).
 */
export async function toTeammemAuthAnswer(answer: Response, request: Request): Promise<Response> {
  if (answer.status < 400) return answer;
  const body = (await answer.json().catch(() => null)) as unknown;
  const shaped = errorResponse(toAuthAppError(answer.status, body), `${request.method} ${new URL(request.url).pathname}`, request);
  answer.headers.forEach((value, key) => {
    if (!BODY_HEADERS.has(key.toLowerCase())) shaped.headers.append(key, value);
  });
  return shaped;
}
