import { parseMemoryHeader, type MemoryType } from "../memdir/frontmatter";
import type { LintFinding } from "../memdir/lint-finding";
import { validateMemory } from "../memdir/validate-memory";
import { scanSecrets } from "../secrets/scan-secrets";
import type { SecretFinding } from "../secrets/secret-finding";
import { checkScope } from "./check-scope";
import { findReplacedStoreSecrets } from "./find-replaced-store-secrets";
import { findDuplicates, type DuplicateFinder, type TeamMemoryText } from "./find-duplicates";
import type { DuplicateCandidate, ProposalChecks } from "./proposal-types";

export type ComputeChecksOptions = {
  path: string;
  /** The proposed file, or null when the proposal retires it. */
  content: string | null;
  /** The file being replaced or retired, when there is one (names a retirement). */
  baseContent: string | null;
  /** The project's team memories, without the file this proposal changes. */
  teamMemories?: readonly TeamMemoryText[];
  /** The project's kept duplicate index (the server's way); `path` is left out of its answers. */
  duplicateFinder?: DuplicateFinder | null;
  /** Duplicates already found for this content (an earlier list brought up to date); no search then. */
  duplicates?: DuplicateCandidate[];
  isTeamConventionConfirmed: boolean;
  now: Date;
};

export type ComputedChecks = { checks: ProposalChecks; name: string | null; type: MemoryType | null; isRetirement: boolean };

/** Lint, secrets, scope (T2), duplicates and the blockers they add up to. Pure: no I/O. */
export function computeChecks(options: ComputeChecksOptions): ComputedChecks {
  const { path, content, isTeamConventionConfirmed } = options;
  if (content === null) {
    const header = parseMemoryHeader(options.baseContent ?? "");
    const scope = checkScope({ type: header.type, content: null, isTeamConventionConfirmed });
    return { checks: { lint: [], secrets: [], scope, duplicates: [], blockers: [] }, name: header.name, type: header.type, isRetirement: true };
  }
  const header = parseMemoryHeader(content);
  const secrets = scanSecrets(content);
  const lint = [...maskSecretValues(validateMemory({ file: path, text: content, mtime: options.now }), content, secrets), ...findReplacedStoreSecrets(path, content, options.baseContent)];
  const scope = checkScope({ type: header.type, content, isTeamConventionConfirmed });
  const duplicates = options.duplicates ?? (options.duplicateFinder ? options.duplicateFinder.find(content, path) : findDuplicates(content, options.teamMemories ?? []));
  const checks = { lint, secrets, scope, duplicates, blockers: [] as string[] };
  checks.blockers = listBlockers(checks);
  return { checks, name: header.name, type: header.type, isRetirement: false };
}

/** The sentences a reviewer reads under "why can't I approve this?". */
/** The one blocker the reviewer lifts at approval time (with confirmTeamConvention), not by editing. */
export const TEAM_CONVENTION_BLOCKER = "Confirm that this is a team convention (it applies to everyone) to approve it.";

export function listBlockers(checks: Omit<ProposalChecks, "blockers">): string[] {
  const blockers: string[] = [];
  if (checks.secrets.length > 0) {
    const where = checks.secrets.map((finding) => `${finding.kind} on line ${finding.line}`).join(", ");
    blockers.push(`${countOf(checks.secrets.length, "secret")} found (${where}): apply the redaction or edit ${checks.secrets.length === 1 ? "it" : "them"} out; content with a secret cannot be approved.`);
  }
  if (checks.scope.verdict === "private-only") {
    blockers.push("This is a user memory: it stays personal and cannot enter the team store; keep it in the private memory.");
  }
  if (checks.scope.verdict === "needs-confirmation") {
    blockers.push(TEAM_CONVENTION_BLOCKER);
  }
  for (const finding of checks.lint.filter((candidate) => candidate.severity === "error")) {
    blockers.push(`${finding.line ? `Line ${finding.line}: ` : ""}${finding.message} Edit the memory before approving it.`);
  }
  return blockers;
}

// Lint messages quote parts of the file (a code block, a phrase); the checks are stored and
// shown, so no secret value may ride along in them.
function maskSecretValues(findings: LintFinding[], text: string, secrets: SecretFinding[]): LintFinding[] {
  if (secrets.length === 0) return findings;
  const values = secrets.map((secret) => text.slice(secret.start, secret.end)).filter((value) => value.length > 0);
  const mask = (message: string): string => values.reduce((masked, value) => masked.split(value).join("[REDACTED]"), message);
  return findings.map((finding) => ({ ...finding, message: mask(finding.message), ...(finding.fix === undefined ? {} : { fix: mask(finding.fix) }) }));
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
