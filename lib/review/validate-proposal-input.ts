import { AppError } from "../errors";
import { findCredentialInName } from "../secrets/find-credential-in-name";
import { redactSecrets } from "../secrets/redact-secrets";
import { scanWithKey } from "../secrets/scan-with-key";
import { findStoreNameProblem } from "./find-store-name-problem";
import { PROPOSAL_SOURCES, type ProposalSource } from "./proposal-types";

export const MAX_CONTENT_BYTES = 100 * 1024;
/** The one size rule for a memory's text, in UTF-8 bytes: routes, submit, revise and `teammem sync`. */
export const CONTENT_TOO_LARGE = `a memory may be at most ${MAX_CONTENT_BYTES / 1024} KB (${MAX_CONTENT_BYTES.toLocaleString("en-US")} bytes of UTF-8, the team store's limit); split it into two memories or shorten it`;
const MAX_PROVENANCE_BYTES = 16 * 1024;
const BLOB_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function invalid(field: string, message: string): AppError {
  return new AppError("INVALID_INPUT", message, { details: { field } });
}

/** C12 plus the store's naming rules (docs/review.md): a safe relative `.md` path, not an index. */
export function assertProposalPath(path: string): void {
  const problem = findStoreNameProblem(path);
  if (problem) throw invalid("path", `path: ${problem}; give the memory file relative to the project, e.g. feedback_testing.md.`);
  if (!path.endsWith(".md")) throw invalid("path", "path: a memory file name ends with .md.");
  if (/(^|\/)MEMORY\.md$/.test(path)) throw invalid("path", "path: MEMORY.md is the index; the store regenerates it with every change, so propose the memory file itself.");
  const credential = findCredentialInName(path);
  if (credential) {
    throw invalid("path", `path: ${credential}; name the memory by its topic, never by a secret. A store file with such a name (pushed from outside teammem) is left out of every page, recall and sync: remove it with git (docs/store.md, "Files teammem leaves alone").`);
  }
}

export function fitsContentLimit(content: string): boolean {
  return Buffer.byteLength(content, "utf8") <= MAX_CONTENT_BYTES;
}

export function assertProposalContent(content: string | null): void {
  if (content === null) return;
  if (!fitsContentLimit(content)) throw invalid("content", `content: ${CONTENT_TOO_LARGE}.`);
  if (content.includes("\0")) throw invalid("content", "content: a memory is text; it must not contain NUL characters.");
}

export function assertBaseBlob(baseBlob: string | null): void {
  if (baseBlob !== null && !BLOB_ID.test(baseBlob)) throw invalid("baseBlob", "baseBlob: must be a git blob id (40 or 64 hex digits) or null for a new file.");
}

export function assertProposalSource(source: string): asserts source is ProposalSource {
  if (!(PROPOSAL_SOURCES as readonly string[]).includes(source)) throw invalid("source", `source: must be one of ${PROPOSAL_SOURCES.join(", ")}.`);
}

/** Provenance is stored with every secret redacted: excerpts of conversations may quote one. */
export function serializeProvenance(provenance: Record<string, unknown> | undefined): string {
  const json = JSON.stringify(redactStrings(provenance ?? {}));
  if (Buffer.byteLength(json, "utf8") > MAX_PROVENANCE_BYTES) {
    throw invalid("provenance", `provenance: at most ${MAX_PROVENANCE_BYTES / 1024} KB of JSON (ids and ranges, not transcripts).`);
  }
  return json;
}

function redactStrings(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value).text;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redactSecrets(key).text, typeof inner === "string" ? scanWithKey(key, inner, redactText) : redactStrings(inner)]));
  return value;
}

function redactText(text: string): string {
  return redactSecrets(text).text;
}
