import * as z from "zod/mini";

/**
 * The shape of `GET /api/projects/:id/sync` and of a sync proposal's answer, shared by the server
 * (which builds it) and `teammem sync` (which checks every answer against it before it writes
 * anything: a malformed answer stops the sync).
 */
/** How many of a member's proposals one sync answer reports on (a longer list does not fit a URL). */
export const MAX_TRACKED_PROPOSALS = 200;

const Blob = z.string().check(z.regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/));

export const SyncFile = z.object({
  /** Relative to the project folder (team/ on a member's disk), `/` separators. */
  path: z.string().check(z.minLength(1), z.maxLength(300)),
  content: z.string(),
  /** The store's blob id of the file (of the unmasked text when `masked`). */
  blob: Blob,
  /** True when secrets were replaced by `[REDACTED:…]` markers: the store's text never leaves in clear. */
  masked: z.boolean(),
  /** Author time of the store commit that last changed the file: the mtime a member's copy gets (A1). */
  changedAt: z.coerce.date(),
  changedCommit: Blob,
});
export type SyncFile = z.infer<typeof SyncFile>;

const BLOB_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/**
 * A full listing holds one file per memory (5,000 and more): its entries are checked by hand,
 * the same rules as `SyncFile` (zod took ~100 ms for 5,000 of them, a tenth of a first pull).
 * Times must be the ISO form the server sends. The differential test holds the two together.
 */
const SyncFiles = z.pipe(
  z.custom<unknown[]>((value) => Array.isArray(value) && value.every(isSyncFileEntry)),
  z.transform((files: unknown[]) => (files as RawSyncFile[]).map((file): SyncFile => ({ path: file.path, content: file.content, blob: file.blob, masked: file.masked, changedAt: new Date(file.changedAt), changedCommit: file.changedCommit }))),
);
type RawSyncFile = Omit<SyncFile, "changedAt"> & { changedAt: string };

export function isSyncFileEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    typeof file.path === "string" && file.path.length >= 1 && file.path.length <= 300 &&
    typeof file.content === "string" &&
    typeof file.blob === "string" && BLOB_ID.test(file.blob) &&
    typeof file.masked === "boolean" &&
    typeof file.changedAt === "string" && ISO_TIME.test(file.changedAt) && !Number.isNaN(Date.parse(file.changedAt)) &&
    typeof file.changedCommit === "string" && BLOB_ID.test(file.changedCommit)
  );
}

export const TrackedProposal = z.object({
  id: z.string(),
  path: z.string(),
  state: z.string(),
  isRetirement: z.boolean(),
  rejectionReason: z.nullable(z.string()),
  /** Committed and its commit is part of `head`: the store now holds the outcome. */
  hasLanded: z.boolean(),
  /** For decided proposals: the file at `head` now (null when the store does not hold it). */
  current: z.optional(z.nullable(SyncFile)),
  /** With a full answer: the checkout the proposal came from (its provenance), null when unknown. */
  checkout: z.optional(z.nullable(z.string())),
});
export type TrackedProposal = z.infer<typeof TrackedProposal>;

export const SyncAnswer = z.object({
  projectId: z.string(),
  /** The store commit this answer describes; null while the store is empty. */
  head: z.nullable(Blob),
  since: z.nullable(z.string()),
  /** Nothing changed since `since`: no files, no removals. */
  isUnchanged: z.boolean(),
  /** Every file of the project is listed (no usable `since`): compare everything. */
  full: z.boolean(),
  files: SyncFiles,
  /** Files the store removed since `since` (only when not `full`), on page 1. */
  removed: z.array(z.string()),
  page: z.int().check(z.minimum(1)),
  pageCount: z.int().check(z.minimum(1)),
  /**
   * How many memories the listing holds over all its pages (changed or added; every one when
   * `full`), MEMORY.md not counted: what `teammem status` says the store gained. Absent from a
   * server older than this field.
   */
  changedMemories: z.optional(z.int().check(z.minimum(0))),
  /** The caller's sync proposals asked about with `proposals=`, on page 1. */
  proposals: z.array(TrackedProposal),
});
export type SyncAnswer = z.infer<typeof SyncAnswer>;

export const SyncProposalAnswer = z.object({
  proposal: z.looseObject({ id: z.string(), state: z.string(), path: z.string() }),
  /** False when the idempotency key had already made this proposal (a retry). */
  isNew: z.boolean(),
  /** True when the change became the next revision of the member's open sync proposal for the file. */
  isRevision: z._default(z.boolean(), false),
});
export type SyncProposalAnswer = z.infer<typeof SyncProposalAnswer>;
