import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Request bodies are small JSON documents; anything bigger is refused before it is parsed. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Reads a JSON body with a size cap and validates it, naming the first field that is wrong. */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readCapped(request);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_INPUT", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.join(".") : "body";
    throw new AppError("INVALID_INPUT", `${field}: ${issue.message}.`, { details: { field } });
  }
  return parsed.data;
}

async function readCapped(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_BODY_BYTES / 1024} KB.`);
}
