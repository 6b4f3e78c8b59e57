import { freshnessWarning, memoryAge } from "./age";

/**
 * A3: the line put above a recalled memory's content. Fresh memories (today, yesterday) say when
 * they were saved; older ones lead with the freshness warning so the doubt comes first.
 */
export function formatMemoryHeader(memoryPath: string, mtime: Date, now: Date = new Date()): string {
  const warning = freshnessWarning(mtime, now);
  if (warning) return `${warning}\nMemory: ${memoryPath}:`;
  return `Memory (saved ${memoryAge(mtime, now)}): ${memoryPath}:`;
}
