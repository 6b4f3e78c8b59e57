import type { MemoryType } from "../memdir/frontmatter";
import type { GitIdentity } from "../store/git";
import type { ProposalSource } from "./proposal-types";

export type CommitMessageOptions = {
  proposalId: string;
  path: string;
  name: string | null;
  type: MemoryType | null;
  isNew: boolean;
  isRetirement: boolean;
  source: ProposalSource;
  approver: GitIdentity;
  baseCommit: string | null;
};

const MAX_SUBJECT_NAME = 60;

/** "Add feedback memory: <name>" and the trailers that tie the commit to its review. */
export function formatCommitMessage(options: CommitMessageOptions): { subject: string; trailers: Record<string, string> } {
  const verb = options.isRetirement ? "Retire" : options.isNew ? "Add" : "Update";
  const label = oneLine(options.name ?? options.path);
  const shortLabel = label.length > MAX_SUBJECT_NAME ? `${label.slice(0, MAX_SUBJECT_NAME - 1)}…` : label;
  const approvedBy = `${oneLine(options.approver.name)} <${oneLine(options.approver.email)}>`;
  const trailers: Record<string, string> = {
    "Proposal-Id": options.proposalId,
    "Approved-by": approvedBy,
    "Reviewed-by": approvedBy,
    Source: options.source,
  };
  if (options.baseCommit) trailers["Base-Commit"] = options.baseCommit;
  return { subject: `${verb} ${options.type ?? "untyped"} memory: ${shortLabel}`, trailers };
}

// A name with a line break would end the subject and start a fake trailer.
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").trim();
}
