import * as z from "zod/mini";

/** The store's `teammem.json`: format version and the projects it holds. */
export const STORE_FORMAT_VERSION = 1;
export const STORE_MANIFEST_FILE = "teammem.json";

// zod's mini build: the CLI loads this module, and zod's full build is ~250 KB more at each start.

/** Stable across machines (never a local path): lowercase letters, digits, dots, dashes. */
export const ProjectId = z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]{0,99}$/, "must be 1-100 lowercase letters, digits, dots or dashes"));

/** One project's entry in `teammem.json`. */
export const StoreProjectEntry = z.object({
  id: ProjectId,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Normalised repository remote, e.g. github.com/acme/checkout (the first of repoUrls). */
  remote: z.optional(z.string().check(z.maxLength(500))),
  /** Every normalised repository URL whose checkouts belong to the project. */
  repoUrls: z.optional(z.array(z.string().check(z.maxLength(500))).check(z.maxLength(20))),
  /** Archived: hidden from lists and closed to new proposals; its history stays. */
  archived: z.optional(z.boolean()),
});

export const StoreManifest = z.object({
  formatVersion: z.literal(STORE_FORMAT_VERSION),
  projects: z.array(StoreProjectEntry),
});
export type StoreManifest = z.infer<typeof StoreManifest>;

export function projectDir(projectId: string): string {
  return `projects/${projectId}`;
}

export function serializeStoreManifest(manifest: StoreManifest): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}
