import { z } from "zod";
import { isMemoryType, type MemoryType } from "../memdir/frontmatter";
import type { LintFinding } from "../memdir/lint-finding";
import { maskOptionalText } from "../secrets/mask-secret-ranges";
import type { SecretFinding } from "../secrets/secret-finding";
import { maskChecks } from "./mask-proposal";
import type { DuplicateCandidate, ProposalChecks, ProposalConflict } from "./proposal-types";

/**
 * What Proposal.checks holds: the checks the reviewer sees, plus what the queue lists without
 * reading revisions (the memory's name and type), the commit the base was read at, and, while
 * conflicted, the three versions. Secret findings carry ranges and previews only.
 */
export type StoredChecks = {
  checks: ProposalChecks;
  name: string | null;
  type: MemoryType | null;
  /** The current revision has no content: the proposal removes the file. */
  isRetirement: boolean;
  baseCommit: string | null;
  /** The store commit the duplicate check ran against; an approval re-judges only what changed since. */
  checkedCommit?: string | null;
  conflict: ProposalConflict | null;
};

const objectList = z.array(z.record(z.string(), z.unknown())).catch([]);
const nullableText = z.string().nullable().catch(null);

// Only this module writes the column; the schema keeps a hand-edited or older row from breaking
// the queue (missing parts read as empty) rather than describing every field again.
const StoredChecksJson = z.object({
  lint: objectList,
  secrets: objectList,
  scope: z
    .object({ verdict: z.enum(["team", "needs-confirmation", "private-only"]), reasons: z.array(z.string()), isAbsoluteRule: z.boolean() })
    .catch({ verdict: "needs-confirmation", reasons: ["The checks have not been computed yet."], isAbsoluteRule: false }),
  duplicates: objectList,
  blockers: z.array(z.string()).catch([]),
  memory: z.object({ name: nullableText, type: z.unknown(), isRetirement: z.boolean().catch(false) }).catch({ name: null, type: null, isRetirement: false }),
  baseCommit: nullableText,
  checkedCommit: nullableText.optional().catch(null),
  conflict: z
    .object({ base: nullableText, ours: nullableText, theirs: nullableText, fields: z.array(z.string()).catch([]), twin: z.string().optional().catch(undefined) })
    .nullable()
    .catch(null),
});

/**
 * The column is not sealed as revisions are, so what it quotes of the memory (its name, lint
 * messages, a conflict's sides) is written masked, as every page shows it: a credential in a
 * proposal's name was in the database in clear. Masking is idempotent, so rows read and written
 * again stay as they are. A clean name, the one an approval's commit message uses, is unchanged.
 */
export function serializeStoredChecks(stored: StoredChecks): string {
  const { checks, name, type, isRetirement, baseCommit, checkedCommit, conflict } = stored;
  const maskedConflict = conflict && { ...conflict, base: maskOptionalText(conflict.base), ours: maskOptionalText(conflict.ours), theirs: maskOptionalText(conflict.theirs) };
  return JSON.stringify({ ...maskChecks(checks), memory: { name: maskOptionalText(name), type, isRetirement }, baseCommit, checkedCommit: checkedCommit ?? null, conflict: maskedConflict });
}

export function parseStoredChecks(json: string): StoredChecks {
  const parsed = StoredChecksJson.parse(safeJson(json));
  return {
    checks: {
      lint: parsed.lint as LintFinding[],
      secrets: parsed.secrets as SecretFinding[],
      scope: parsed.scope,
      duplicates: parsed.duplicates as DuplicateCandidate[],
      blockers: parsed.blockers,
    },
    name: parsed.memory.name,
    type: isMemoryType(parsed.memory.type) ? parsed.memory.type : null,
    isRetirement: parsed.memory.isRetirement,
    baseCommit: parsed.baseCommit,
    checkedCommit: parsed.checkedCommit ?? null,
    conflict: parsed.conflict,
  };
}

function safeJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return {}; // an unreadable column reads as "no checks yet"; the next check run rewrites it
  }
}
