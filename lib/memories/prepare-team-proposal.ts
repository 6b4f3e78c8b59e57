import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import { findPrivateTypeProblem } from "../memdir/find-private-type-problem";
import { parseMemoryHeader, type MemoryType } from "../memdir/frontmatter";
import { CONTENT_TOO_LARGE, fitsContentLimit } from "../review/validate-proposal-input";
import { scanSecrets } from "../secrets/scan-secrets";
import { readMemoryFile } from "./read-memory-file";
import { resolvePrivateMemoryDir } from "./resolve-private-memory-dir";

export type TeamProposalDraft = {
  /** The whole file to propose; null when it may not or cannot be proposed (see blockedReason). */
  content: string | null;
  type: MemoryType | null;
  blockedReason: string | null;
  /** T2: a `feedback` (or untyped) memory reaches the team only as a convention the lead confirms. */
  needsConventionConfirmation: boolean;
};

/**
 * What "Propose to team" may send for one private memory, decided on the server: T2 keeps a
 * `user` memory private; a file holding a credential is not offered (T3: it would be sent to
 * the team's queue); a file in `team/` is already the team's copy (sync proposes its changes).
 */
export async function prepareTeamProposal(options: { config: Config; caller: Caller; folder: string; memoryPath: string }): Promise<TeamProposalDraft> {
  if (options.memoryPath.startsWith("team/")) {
    return blocked(null, "This file is in team/, the copy of team memory that `teammem sync` keeps: an edit here becomes a proposal when you sync.");
  }
  const memoryDir = await resolvePrivateMemoryDir(options.config, options.caller, options.folder);
  const file = await readMemoryFile(memoryDir, options.memoryPath);
  const { type } = parseMemoryHeader(file.text);
  if (type === "user") {
    return blocked(type, "This is a `user` memory: it describes you (your role, preferences, what you know), so it stays private and cannot be proposed.");
  }
  const typeProblem = findPrivateTypeProblem(options.memoryPath, file.text);
  if (typeProblem) return blocked(type, `This file ${typeProblem}.`);
  if (file.isCut || !fitsContentLimit(file.text)) return blocked(type, `This file is too large to propose: ${CONTENT_TOO_LARGE}.`);
  const secrets = scanSecrets(file.text);
  if (secrets.length > 0) {
    return blocked(type, `This file holds what looks like a credential (${[...new Set(secrets.map((secret) => secret.kind))].join(", ")}); every member's agent reads team memory. Remove it first (\`teammem secrets FILE --redact --write\` replaces it and keeps a backup).`);
  }
  return { content: file.text, type, blockedReason: null, needsConventionConfirmation: type === "feedback" || type === null };
}

function blocked(type: MemoryType | null, reason: string): TeamProposalDraft {
  return { content: null, type, blockedReason: reason, needsConventionConfirmation: false };
}
