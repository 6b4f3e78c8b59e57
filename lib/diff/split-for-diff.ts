import { normaliseText } from "../memdir/frontmatter";

export type SplitMemory = { fields: Map<string, string>; body: string };

/**
 * Frontmatter as `key → raw value text` (what the author wrote, not a re-serialisation), and the
 * body. Lines of a multi-line value stay with their key. No frontmatter: everything is body.
 */
export function splitFrontmatterForDiff(text: string): SplitMemory {
  const normalised = normaliseText(text);
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(normalised);
  if (!match) return { fields: new Map(), body: normalised };
  const fields = new Map<string, string>();
  let current: string | null = null;
  for (const line of match[1]!.split("\n")) {
    const key = /^([A-Za-z0-9_-]+):\s?(.*)$/.exec(line);
    if (key) {
      current = key[1]!;
      fields.set(current, key[2]!);
    } else if (current) {
      fields.set(current, `${fields.get(current)}\n${line}`);
    }
  }
  return { fields, body: normalised.slice(match[0].length) };
}
