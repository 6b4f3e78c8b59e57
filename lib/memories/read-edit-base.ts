import type { Config } from "../config";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { readCurrentFile } from "../store/commit-change";
import { maskedBlobId } from "../store/masked-blob-id";

/** What a team memory's page offers to edit: the file as every page shows it, and the blob it is. */
export type EditBase = { blob: string; content: string };

/**
 * The base of "Propose an edit" on a team memory's page, or null when the store has no such
 * file. The page hands it to a client component, so it travels in the page's data as well as
 * on screen: masked like every page (a file pushed from outside teammem may hold a secret). An
 * edit proposed from it carries `[REDACTED:…]` where the value was, which removes the secret.
 */
export async function readEditBase(config: Config, projectId: string, path: string): Promise<EditBase | null> {
  const current = await readCurrentFile(config, projectId, path);
  if (!current) return null;
  const content = maskSecretsForDisplay(current.content);
  // A masked file is named by its masked id: its blob id would let a short secret be guessed.
  return { blob: content === current.content ? current.blob : maskedBlobId(config, current.blob), content };
}
