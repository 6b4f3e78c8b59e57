import { createHash } from "node:crypto";

/** Letter-only words made from `seed` (a-p, from its hash): the same seed gives the same words. */
function wordsOf(seed: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => createHash("sha256").update(`${seed}:${index}`).digest("hex").slice(0, 7).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 16))));
}

/**
 * A project memory whose words are its own, for tests that approve several proposals one after
 * another: the review refuses to commit a near-duplicate that landed after the proposal's checks
 * ran (docs/review.md, "Checks"), and fixtures made from one template all read alike.
 */
export function distinctProjectMemory(title: string, seed: string): string {
  const words = wordsOf(seed, 14);
  return `---\nname: ${title} ${words.slice(0, 2).join(" ")}\ndescription: ${words.slice(2, 7).join(" ")}\ntype: project\n---\n${words.slice(7, 11).join(" ")}.\n**Why:** ${words[11]} ${words[12]}.\n**How to apply:** ${words[13]}.\n`;
}
