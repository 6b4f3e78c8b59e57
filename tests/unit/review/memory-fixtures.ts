import { createChars, createRandom } from "../secrets/build-secret-corpus";

export type MemoryFields = { name?: string; description?: string; type?: string; body?: string };

/** A memory file the way Claude Code writes one (F7). */
export function memoryText(fields: MemoryFields = {}): string {
  const {
    name = "Integration tests hit a real database",
    description = "Checkout integration tests run against a real PostgreSQL instance, never a mocked repository",
    type = "feedback",
    body = "Run integration tests against the disposable PostgreSQL the harness starts.\n**Why:** a mocked suite hid a unique-index failure in April 2026.\n**How to apply:** any test that touches SQL or transactions.\n",
  } = fields;
  return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n${body}`;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A password value the scanner reports as a password assignment, made at test time from a seed
 * (live-looking credentials are never committed).
 */
export function fakePassword(seed: number): string {
  return `${createChars(createRandom(seed))(ALNUM, 14)}9!`;
}
