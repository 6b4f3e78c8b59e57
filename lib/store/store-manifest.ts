import { z } from "zod";

/** The store's `teammem.json`: format version and the projects it holds. */
export const STORE_FORMAT_VERSION = 1;
export const STORE_MANIFEST_FILE = "teammem.json";

/** Stable across machines (never a local path): lowercase letters, digits, dots, dashes. */
export const ProjectId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{0,99}$/, "must be 1-100 lowercase letters, digits, dots or dashes");

export const StoreManifest = z.object({
  formatVersion: z.literal(STORE_FORMAT_VERSION),
  projects: z.array(
    z.object({
      id: ProjectId,
      name: z.string().min(1).max(200),
      /** Normalised repository remote, e.g. github.com/acme/checkout (the first of repoUrls). */
      remote: z.string().max(500).optional(),
      /** Every normalised repository URL whose checkouts belong to the project. */
      repoUrls: z.array(z.string().max(500)).max(20).optional(),
      /** Archived: hidden from lists and closed to new proposals; its history stays. */
      archived: z.boolean().optional(),
    }),
  ),
});
export type StoreManifest = z.infer<typeof StoreManifest>;

export function projectDir(projectId: string): string {
  return `projects/${projectId}`;
}

export function serializeStoreManifest(manifest: StoreManifest): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}
