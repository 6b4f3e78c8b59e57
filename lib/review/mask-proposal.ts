import { maskOptionalText, maskSecretsDeep, maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import type { ProposalChecks, ProposalDetail, ProposalSummary } from "./proposal-types";

/**
 * Proposals leave the review code only through these: every text a page or an API response
 * shows (content, the store's versions, conflict sides, names, reasons, notes, provenance) has
 * each secret value replaced by `[REDACTED:<kind> <preview>]`, for every caller, the proposer
 * included. The unmasked content stays in the database for redaction and commit.
 */
export function maskProposalSummary<T extends ProposalSummary>(summary: T): T {
  return { ...summary, name: maskOptionalText(summary.name), checks: maskChecks(summary.checks) };
}

export function maskProposalDetail(detail: ProposalDetail): ProposalDetail {
  const summary = maskProposalSummary(detail);
  return {
    ...summary,
    content: detail.content === null ? null : maskSecretsForDisplay(detail.content, detail.checks.secrets),
    baseContent: maskOptionalText(detail.baseContent),
    headContent: maskOptionalText(detail.headContent),
    provenance: maskSecretsDeep(detail.provenance) as Record<string, unknown>,
    rejectionReason: maskOptionalText(detail.rejectionReason),
    conflict: detail.conflict && {
      ...detail.conflict,
      base: maskOptionalText(detail.conflict.base),
      ours: maskOptionalText(detail.conflict.ours),
      theirs: maskOptionalText(detail.conflict.theirs),
    },
    revisions: detail.revisions.map((revision) => ({ ...revision, note: maskOptionalText(revision.note) })),
    events: detail.events.map((event) => ({ ...event, reason: maskOptionalText(event.reason) })),
  };
}

// Lint messages and duplicate names quote the memory; findings already carry only previews.
export function maskChecks(checks: ProposalChecks): ProposalChecks {
  return {
    ...checks,
    lint: checks.lint.map((finding) => ({ ...finding, message: maskSecretsForDisplay(finding.message), ...(finding.fix === undefined ? {} : { fix: maskSecretsForDisplay(finding.fix) }) })),
    duplicates: checks.duplicates.map((duplicate) => ({ ...duplicate, name: maskOptionalText(duplicate.name) })),
    blockers: checks.blockers.map((blocker) => maskSecretsForDisplay(blocker)),
    scope: { ...checks.scope, reasons: checks.scope.reasons.map((reason) => maskSecretsForDisplay(reason)) },
  };
}
