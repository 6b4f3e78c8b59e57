import { createHash } from "node:crypto";
import type { Proposal } from "../../generated/prisma/client";
import { directReadsOutsideTransaction, type Db } from "../db/client";
import { AppError } from "../errors";
import { isProposalState } from "./proposal-transitions";
import { readPeopleDirectly, readProposalDirectly } from "./read-proposal-directly";
import { PROPOSAL_SOURCES, type ProposalPerson, type ProposalSource, type ProposalState } from "./proposal-types";

export type ProposalRow = Proposal;

/** A Prisma client inside an interactive transaction. */
export type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** sha256 of the file; a retirement (no content) hashes the empty text. */
export function contentHash(content: string | null): string {
  return createHash("sha256").update(content ?? "").digest("hex");
}

export type FoundProposal = { proposal: ProposalRow; state: ProposalState; content: string | null };

export async function findProposalOrThrow(db: Db | Tx, proposalId: string): Promise<FoundProposal> {
  const reads = directReadsOutsideTransaction(db);
  const found = reads ? await readProposalDirectly(reads, proposalId) : await readProposalInPrisma(db, proposalId);
  if (!found) throw new AppError("NOT_FOUND", `There is no proposal "${proposalId}".`);
  if (!found.hasRevision) throw new AppError("INTERNAL", "A proposal is missing its current revision; its history is kept, but it cannot be acted on.");
  return { proposal: found.proposal, state: stateOf(found.proposal), content: found.content };
}

async function readProposalInPrisma(db: Db | Tx, proposalId: string): Promise<{ proposal: ProposalRow; content: string | null; hasRevision: boolean } | null> {
  const proposal = await db.proposal.findUnique({ where: { id: proposalId } });
  if (!proposal) return null;
  const revision = await db.proposalRevision.findUnique({ where: { proposalId_revision: { proposalId, revision: proposal.revision } } });
  return { proposal, content: revision?.content ?? null, hasRevision: revision !== null };
}

export function stateOf(proposal: Pick<ProposalRow, "state">): ProposalState {
  if (!isProposalState(proposal.state)) throw new AppError("INTERNAL", `A proposal has an unknown state "${proposal.state}".`);
  return proposal.state;
}

/** The people behind ids; someone deleted since still shows as a row. */
export async function loadPeople(db: Db, ids: Iterable<string | null>): Promise<Map<string, ProposalPerson>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  const reads = directReadsOutsideTransaction(db);
  const users = reads ? await readPeopleDirectly(reads, wanted) : wanted.length ? await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true, email: true } }) : [];
  const people = new Map(users.map((user) => [user.id, user]));
  for (const id of wanted) if (!people.has(id)) people.set(id, { id, name: "(removed user)", email: "" });
  return people;
}

export async function findUserOrThrow(db: Db, userId: string, role: string): Promise<ProposalPerson> {
  const reads = directReadsOutsideTransaction(db);
  const user = reads ? (await readPeopleDirectly(reads, [userId]))[0] : await db.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true } });
  if (!user) throw new AppError("NOT_FOUND", `The ${role} is not a known user.`);
  return user;
}

function isProposalSource(value: string): value is ProposalSource {
  return (PROPOSAL_SOURCES as readonly string[]).includes(value);
}

export function sourceOf(source: string): ProposalSource {
  if (!isProposalSource(source)) throw new AppError("INTERNAL", `A proposal has an unknown source "${source}".`);
  return source;
}
