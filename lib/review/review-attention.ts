import type { ProposalChecks } from "./proposal-types";

/**
 * What a reviewer must look at before approving, one short label each, for the queue: the
 * blockers (secret, personal scope, team-convention confirmation, format errors) and the
 * possible duplicates, which do not block but must not be approved unseen.
 */
export function listAttentionPoints(checks: ProposalChecks): string[] {
  const points: string[] = [];
  if (checks.secrets.length > 0) points.push(`secret: ${[...new Set(checks.secrets.map((secret) => secret.kind))].join(", ")}`);
  if (checks.scope.verdict === "private-only") points.push("personal memory: stays private");
  if (checks.scope.verdict === "needs-confirmation") points.push("confirm it is a team convention");
  const errors = checks.lint.filter((finding) => finding.severity === "error");
  if (errors.length > 0) points.push(`format: ${[...new Set(errors.map((finding) => finding.rule))].join(", ")}`);
  for (const duplicate of checks.duplicates) points.push(`possible duplicate of ${duplicate.path}`);
  return points;
}

/** Clean = may be approved in bulk: nothing blocks it and nothing needs a reviewer's judgement. */
export function isCleanForBulkApproval(checks: ProposalChecks): boolean {
  return checks.blockers.length === 0 && checks.duplicates.length === 0 && checks.scope.verdict === "team";
}
