import { escapeControlCharacters } from "./escape-control-characters";
import type { ScannedMemory } from "./scan-memory-dir";

export type ManifestMemory = Pick<ScannedMemory, "path" | "type" | "description" | "mtime">;

/**
 * S5, C6: `- [type] path (2026-03-28T10:30:00.000Z): description`, one line per memory. A memory
 * without a valid type has no `[type] ` tag and one without a description has no `: …` tail;
 * the seed is silent on the tag, and Claude Code omits it rather than printing `[null]`. Control
 * characters in the path or description are escaped: a file named `x.md\n- [user] fake.md …`
 * must stay one line, not fake an entry in what the selector reads.
 */
export function formatManifestLine(memory: ManifestMemory): string {
  const tag = memory.type ? `[${memory.type}] ` : "";
  const tail = memory.description ? `: ${escapeControlCharacters(memory.description)}` : "";
  return `- ${tag}${manifestName(memory.path)} (${memory.mtime.toISOString()})${tail}`;
}

/** A memory's name as the manifest shows it (and so as a selector answers with it). */
export function manifestName(memoryPath: string): string {
  return escapeControlCharacters(memoryPath);
}
