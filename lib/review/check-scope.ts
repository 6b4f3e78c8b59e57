import type { MemoryType } from "../memdir/frontmatter";
import { findAbsoluteRules } from "./find-absolute-rules";
import type { ProposalChecks } from "./proposal-types";

export type CheckScopeOptions = {
  type: MemoryType | null;
  /** The whole file, or null for a retirement. */
  content: string | null;
  isTeamConventionConfirmed: boolean;
};

/** T2: whether this memory belongs in the team store, and what the reviewer must confirm. */
export function checkScope(options: CheckScopeOptions): ProposalChecks["scope"] {
  const { type, content, isTeamConventionConfirmed } = options;
  if (content === null) {
    return { verdict: "team", reasons: ["Retires a team memory: it leaves every member's team folder on their next sync."], isAbsoluteRule: false };
  }
  const absolute = findAbsoluteRules(content);
  const absoluteReasons = absolute.map(
    (hit) => `Line ${hit.line} starts with "${hit.word}": an absolute rule binds every member's agent; check it holds for the whole team.`,
  );
  const verdict = baseVerdict(type, isTeamConventionConfirmed);
  return { verdict: verdict.verdict, reasons: [...verdict.reasons, ...absoluteReasons], isAbsoluteRule: absolute.length > 0 };
}

function baseVerdict(type: MemoryType | null, isConfirmed: boolean): { verdict: ProposalChecks["scope"]["verdict"]; reasons: string[] } {
  switch (type) {
    case "user":
      return { verdict: "private-only", reasons: ["A user memory describes one person (role, goals, preferences): it stays in their private memory and never enters the team store."] };
    case "project":
    case "reference":
      return { verdict: "team", reasons: [`A ${type} memory is shared with the team by default.`] };
    case "feedback":
      return isConfirmed
        ? { verdict: "team", reasons: ["Feedback confirmed by the reviewer as a team convention."] }
        : { verdict: "needs-confirmation", reasons: ["Feedback is personal unless it is a team convention (\"tests must hit a real database\" is; \"no summaries\" is not): confirm it applies to everyone."] };
    case null:
      return isConfirmed
        ? { verdict: "team", reasons: ["A memory without a type, confirmed by the reviewer as meant for the team."] }
        : { verdict: "needs-confirmation", reasons: ["The memory has no type, so its scope is unknown: confirm it is meant for the whole team."] };
  }
}
