import type { DroppedMemory } from "./dropped-memory";

/** R5: the selector gives at most five memories. */
export const MAX_SELECTED = 5;

export type ValidatedSelection = { files: string[]; dropped: DroppedMemory[] };

/**
 * R5, C8: the model's answer is trusted only for names in the manifest, in the model's order,
 * once each, at most five. Everything else is reported, not silently lost.
 */
export function validateSelection(names: readonly string[], knownFiles: ReadonlySet<string>): ValidatedSelection {
  const files: string[] = [];
  const dropped: DroppedMemory[] = [];
  for (const name of names) {
    if (!knownFiles.has(name)) dropped.push({ file: name, reason: "unknown-name" });
    else if (files.includes(name)) dropped.push({ file: name, reason: "duplicate" });
    else if (files.length >= MAX_SELECTED) dropped.push({ file: name, reason: "over-five" });
    else files.push(name);
  }
  return { files, dropped };
}
