import { normaliseText } from "../memdir/frontmatter";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { checkCodeCitations } from "./check-code-citations";
import type { CheckResult } from "./check-result";
import { extractCitations } from "./extract-citations";
import { findDatedClaims } from "./find-dated-claims";
import { readClaimedText } from "./read-claimed-text";
import { forEachYielding } from "../yield-to-event-loop";

export type MemoryText = { key: string; text: string; writtenAt: Date };

export type CheckTextsOptions = { memories: MemoryText[]; code: { dir: string; commit: string } | null };

/**
 * Everything about memory file versions that does not depend on the clock: citations checked
 * against one code commit (all memories in one batch), and the dates their truth hangs on.
 */
export async function checkMemoryTexts({ memories, code }: CheckTextsOptions): Promise<Map<string, CheckResult>> {
  const parsed: (MemoryText & { citations: ReturnType<typeof extractCitations>; claims: ReturnType<typeof findDatedClaims> })[] = [];
  // In slices: a first check of 10,000 memories is seconds of work on the server's one thread.
  await forEachYielding(memories, 200, (memory) => {
    // Masked first: every message, phrase and citation derived below goes to the database and to
    // pages, and none may carry a credential (a token in backticks looks like an identifier).
    const claimed = readClaimedText(normaliseText(maskSecretsForDisplay(memory.text)));
    const claims = findDatedClaims(claimed.text, memory.writtenAt).map((claim) => ({ ...claim, line: claimed.fileLine(claim.line) }));
    parsed.push({ ...memory, citations: extractCitations(claimed.text), claims });
  });
  const withCitations = parsed.filter((memory) => memory.citations.paths.length + memory.citations.fileNames.length + memory.citations.symbols.length > 0);
  const codeChecks = code && withCitations.length > 0 ? await checkCodeCitations(code.dir, code.commit, withCitations) : new Map();
  return new Map(
    parsed.map((memory) => {
      const citationCount = memory.citations.paths.length + memory.citations.fileNames.length + memory.citations.symbols.length;
      const codeCheck = code ? (codeChecks.get(memory.key) ?? { signals: [], notes: [] }) : null;
      return [memory.key, { code: codeCheck, claims: memory.claims, citationCount, isTruncated: memory.citations.isTruncated }];
    }),
  );
}
