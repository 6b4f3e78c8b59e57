import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { SecretFinding } from "../secrets/secret-finding";
import type { GitIdentity } from "./git";

export type StoreChange = {
  projectId: string;
  projectName?: string;
  /** Relative to projects/<id>/, e.g. feedback_x.md. */
  path: string;
  /** null = retire (delete) the file. */
  content: string | null;
  /** The blob the change was made against; null = the file was absent. */
  baseBlob: string | null;
};

export type CommitChangeOptions = {
  change: StoreChange;
  /** The proposer. */
  author: GitIdentity;
  /** The approving lead. */
  committer: GitIdentity;
  subject: string;
  /** e.g. Proposal-Id, Approved-by, Reviewed-by, Source, Base-Commit; "Secret-Scan: pass" is added. */
  trailers: Record<string, string>;
  /** Called with each commit once it exists locally, BEFORE it is pushed (the caller records it). */
  onIntent: (commit: string) => Promise<void>;
  /** Non-fast-forward retries, with jittered backoff. */
  maxAttempts?: number;
};

export type CommitOutcome =
  | { status: "committed"; commit: string; merged: boolean; blob: string | null }
  | { status: "unchanged"; commit: string }
  | { status: "conflicted"; base: string | null; ours: string | null; theirs: string | null; conflictingFields: string[] }
  | { status: "blocked_secret"; findings: SecretFinding[] };

export async function commitChange(_config: Config, _db: Db, _options: CommitChangeOptions): Promise<CommitOutcome> {
  throw new AppError("INTERNAL", "commitChange is being written.");
}

export async function isCommitOnMain(_config: Config, _commit: string): Promise<boolean> {
  throw new AppError("INTERNAL", "isCommitOnMain is being written.");
}

export async function readCurrentFile(_config: Config, _projectId: string, _path: string): Promise<{ blob: string; content: string } | null> {
  throw new AppError("INTERNAL", "readCurrentFile is being written.");
}

export async function readBlob(_config: Config, _blob: string): Promise<string | null> {
  throw new AppError("INTERNAL", "readBlob is being written.");
}
