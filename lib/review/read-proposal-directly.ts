import type { Proposal, ProposalEvent, ProposalRevision } from "../../generated/prisma/client";
import { asBoolean, asDate } from "../db/direct-reads";
import type { ClientReads } from "../db/client";
import type { ProposalPerson } from "./proposal-types";

/**
 * A proposal's rows read on the database driver (lib/db/direct-reads.ts) rather than through
 * Prisma: an approval read its proposal, people and history through nine Prisma operations at
 * ~2.7 ms of the server's thread each (docs/benchmarks.md, "Approvals on fewer Prisma
 * operations and no git process"). Reads outside a transaction only; every move of a proposal is still a
 * compare-and-swap in Prisma (transition-proposal.ts), so a row read here that is stale a moment
 * later ends in CONFLICT, as before.
 */

type Row = Record<string, unknown>;

const PROPOSAL_COLUMNS = [
  "id", "projectId", "path", "source", "proposerId", "provenance", "state", "revision", "baseBlob", "teamConventionConfirmed",
  "checks", "approvedRevision", "approvedById", "intendedCommit", "committedCommit", "rejectionReason", "createdAt", "updatedAt",
] as const;

const SELECT_PROPOSAL_WITH_CONTENT =
  `SELECT ${PROPOSAL_COLUMNS.map((column) => `p."${column}"`).join(", ")}, r."content" AS "currentContent", r."id" AS "currentRevisionId" ` +
  `FROM "Proposal" p LEFT JOIN "ProposalRevision" r ON r."proposalId" = p."id" AND r."revision" = p."revision" WHERE p."id" = ?`;

/** The proposal and its current revision's content (opened when sealed); `hasRevision` false when that row is missing. */
export async function readProposalDirectly(reads: ClientReads, proposalId: string): Promise<{ proposal: Proposal; content: string | null; hasRevision: boolean } | null> {
  const row = await reads.one<Row>(SELECT_PROPOSAL_WITH_CONTENT, [proposalId]);
  if (!row) return null;
  const content = await reads.openRevisionContent((row.currentContent as string | null) ?? null);
  return { proposal: toProposal(row), content, hasRevision: row.currentRevisionId !== null && row.currentRevisionId !== undefined };
}

export async function readPeopleDirectly(reads: ClientReads, ids: string[]): Promise<ProposalPerson[]> {
  if (ids.length === 0) return [];
  return reads.all<ProposalPerson>(`SELECT "id", "name", "email" FROM "User" WHERE "id" IN (${ids.map(() => "?").join(", ")})`, ids);
}

/** The revisions without their content (a list of who wrote which revision, and when). */
export async function readRevisionListDirectly(reads: ClientReads, proposalId: string): Promise<Omit<ProposalRevision, "content">[]> {
  const rows = await reads.all<Row>(`SELECT "id", "proposalId", "revision", "contentHash", "authorId", "note", "createdAt" FROM "ProposalRevision" WHERE "proposalId" = ? ORDER BY "revision"`, [proposalId]);
  return rows.map((row) => ({
    id: row.id as string,
    proposalId: row.proposalId as string,
    revision: Number(row.revision),
    contentHash: row.contentHash as string,
    authorId: row.authorId as string,
    note: (row.note as string | null) ?? null,
    createdAt: asDate(row.createdAt)!,
  }));
}

export async function readEventsDirectly(reads: ClientReads, proposalId: string): Promise<ProposalEvent[]> {
  const rows = await reads.all<Row>(
    `SELECT "id", "proposalId", "actorId", "fromState", "toState", "revision", "contentHash", "reason", "at" FROM "ProposalEvent" WHERE "proposalId" = ? ORDER BY "at", "id"`,
    [proposalId],
  );
  return rows.map((row) => ({
    id: row.id as string,
    proposalId: row.proposalId as string,
    actorId: (row.actorId as string | null) ?? null,
    fromState: (row.fromState as string | null) ?? null,
    toState: row.toState as string,
    revision: Number(row.revision),
    contentHash: row.contentHash as string,
    reason: (row.reason as string | null) ?? null,
    at: asDate(row.at)!,
  }));
}

function toProposal(row: Row): Proposal {
  const text = (key: string) => row[key] as string;
  const optionalText = (key: string) => (row[key] as string | null) ?? null;
  const optionalNumber = (key: string) => (row[key] === null || row[key] === undefined ? null : Number(row[key]));
  return {
    id: text("id"),
    projectId: text("projectId"),
    path: text("path"),
    source: text("source"),
    proposerId: text("proposerId"),
    provenance: text("provenance"),
    state: text("state"),
    revision: Number(row.revision),
    baseBlob: optionalText("baseBlob"),
    teamConventionConfirmed: asBoolean(row.teamConventionConfirmed),
    checks: text("checks"),
    approvedRevision: optionalNumber("approvedRevision"),
    approvedById: optionalText("approvedById"),
    intendedCommit: optionalText("intendedCommit"),
    committedCommit: optionalText("committedCommit"),
    rejectionReason: optionalText("rejectionReason"),
    createdAt: asDate(row.createdAt)!,
    updatedAt: asDate(row.updatedAt)!,
  };
}
