import { z } from "zod";
import { MEMORY_SCOPES, type MemorySource } from "@/lib/memories/memory-source";

const SourceParams = z.object({ scope: z.enum(MEMORY_SCOPES), source: z.string().min(1).max(300) });

/** The memory source named by `/memories/<scope>/<project id or private folder>/…`, or null. */
export function parseSourceParams(params: { scope: string; source: string }): MemorySource | null {
  const parsed = SourceParams.safeParse({ scope: params.scope, source: safeDecode(params.source) });
  if (!parsed.success) return null;
  const { scope, source } = parsed.data;
  return scope === "team" ? { scope, projectId: source } : { scope, folder: source };
}

// Next hands dynamic segments over still percent-encoded in some versions; a key is checked
// for hidden `..` in both forms by lib, so decoding once here cannot let anything through.
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
