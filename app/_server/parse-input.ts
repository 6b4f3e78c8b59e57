import type { z } from "zod";
import { AppError } from "@/lib/errors";

/**
 * Validates a request's body or query with a schema, or throws INVALID_INPUT naming the first
 * field that is wrong (`pageSize: Too big…`), so every route words the same mistake the same way.
 */
export function parseInputOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown, whole: "body" | "query"): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : whole;
  throw new AppError("INVALID_INPUT", `${field}: ${issue.message}.`, { details: { field } });
}
