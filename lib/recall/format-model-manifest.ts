import { formatManifestLine, type ManifestMemory } from "../memdir/format-manifest";
import { maskNameRemembered, maskSecretsRemembered } from "./mask-secrets";

// A server's source keeps the same memory objects for as long as the store's commit stands, so
// each line is masked and formatted once per commit (200 dates and masks a recall), not per call.
const lines = new WeakMap<ManifestMemory, string>();

/**
 * S5 as a model reads it (recall's selector, extraction, dream): the manifest line with any
 * credential in the file name or the description masked. Nothing secret goes to a model, and a
 * push from outside teammem can bring a token-named file into the store.
 */
export function formatModelManifestLine(memory: ManifestMemory): string {
  let line = lines.get(memory);
  if (line === undefined) {
    line = formatManifestLine({ ...memory, path: maskNameRemembered(memory.path), description: memory.description === null ? null : maskSecretsRemembered(memory.description) });
    lines.set(memory, line);
  }
  return line;
}

/** The whole manifest as a model reads it, without the memories already surfaced (R4). */
export function formatModelManifest(memories: readonly ManifestMemory[], surfaced: Iterable<string> = []): string {
  const alreadySurfaced = new Set(surfaced);
  return memories
    .filter((memory) => !alreadySurfaced.has(memory.path))
    .map(formatModelManifestLine)
    .join("\n");
}
