import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { approveProposal } from "@/lib/review/approve-proposal";
import { getProposal } from "@/lib/review/get-proposal";

/** What the member-sync tests do to a member's team/ folder and the review queue. */

/** A project memory with the usual why/how lines. */
export function memoryText(name: string, body: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n${body}\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;
}

export async function writeTeamFile(teamDir: string, file: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(teamDir, file)), { recursive: true });
  await writeFile(path.join(teamDir, file), content);
}

export function readTeamFile(teamDir: string, file: string): Promise<string | null> {
  return readFile(path.join(teamDir, file), "utf8").catch(() => null);
}

/**
 * The lead opens the proposal (its checks as the store stands now: a near-copy approved since it
 * was proposed is shown, not refused at approval) and approves the revision shown.
 */
export async function approveAs(world: { config: Config; db: Db }, approverId: string, proposalId: string): Promise<void> {
  const proposal = await getProposal(world.config, world.db, proposalId);
  await approveProposal(world.config, world.db, { proposalId, approverId, revision: proposal.revision });
}
