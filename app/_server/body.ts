import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { findJsonProblem } from "@/lib/http/find-json-problem";
import { parseInputOrThrow } from "./parse-input";

/** Request bodies are small JSON documents; anything bigger is refused before it is parsed. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Deeper than any body teammem takes; a deeper one is refused before anything walks it recursively. */
export const MAX_BODY_DEPTH = 64;

/** Reads a JSON body with a size cap and validates it, naming the first field that is wrong. */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  if (!isJson(request)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json.");
  const text = await readCapped(request);
  const value = parseJsonText(text);
  assertTakeableJson(value);
  return parseInputOrThrow(schema, value, "body");
}

/**
 * The request again, its JSON body read once and checked as readJsonBody checks it (size,
 * Unicode, depth, and the fields when given a schema), for a handler that parses the body itself
 * (better-auth's). A JSON body that does not parse is refused here as on every route; an empty
 * one, or a body that is not JSON, goes on to that handler, except with `fields` (sign-in), where
 * the body must be JSON.
 */
export async function checkedJsonRequest(request: Request, fields?: z.ZodType): Promise<Request> {
  // A body whose fields are checked must be JSON: another encoding (a form) would skip the check.
  if (!isJson(request) && fields && request.body) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json.");
  if (!isJson(request)) return request;
  const text = request.body ? await readCapped(request) : "";
  if (text.trim() === "" && !fields) return request.body ? new Request(request, { body: text }) : request;
  const value = parseJsonText(text);
  assertTakeableJson(value);
  if (fields) parseInputOrThrow(fields, value, "body");
  return new Request(request, { body: text });
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("INVALID_INPUT", "The request body is not valid JSON.");
  }
}

function isJson(request: Request): boolean {
  return /^application\/json\b/i.test(request.headers.get("content-type") ?? "");
}

function assertTakeableJson(value: unknown): void {
  const problem = findJsonProblem(value, MAX_BODY_DEPTH);
  if (problem) throw new AppError("INVALID_INPUT", `${problem.field}: ${problem.message}.`, { details: { field: problem.field } });
}

async function readCapped(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
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
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    // Decoded leniently, each bad byte became U+FFFD, stored as if the sender had written it.
    throw new AppError("INVALID_INPUT", "The request body is not valid UTF-8; send the JSON encoded as UTF-8.");
  }
}

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_BODY_BYTES / 1024} KB.`);
}
