import * as z from "zod/mini";
import { AppError, isAppError } from "../errors";
import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import { SyncAnswer, SyncProposalAnswer, type SyncFile } from "../member-sync/sync-answer";
import type { OutboxItem } from "./sync-state";

/** At most this many restarts when the store moves while pages are read. */
const PAGE_RESTARTS = 3;
/** Fewer, bigger pages: each is a request, a read-model query and a `cat-file` batch on the server. */
const PAGE_SIZE = 2_000;
const PAGES_IN_FLIGHT = 3;
/** 2 million files: an answer claiming more pages is not one this client walks through. */
const MAX_PAGES = 1_000;

export type FetchSyncOptions = { projectId: string; since: string | null; proposalIds: string[]; clientVersion: string; isPeek?: boolean; pageSize?: number; isFirstPageOnly?: boolean; onPage?: (page: number, pageCount: number) => void };

/** Every page of one answer, all for the same head, each checked before anything is used. */
export async function fetchSyncAnswer(target: ApiTarget, options: FetchSyncOptions): Promise<SyncAnswer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchPages(target, options);
    } catch (error) {
      if (!(isAppError(error) && error.code === "CONFLICT") || attempt >= PAGE_RESTARTS) throw error;
    }
  }
}

/**
 * Page 1 names the head; the other pages are asked for a few at a time (the server reads each
 * from git in its own processes, so they overlap) and kept in order.
 */
async function fetchPages(target: ApiTarget, options: FetchSyncOptions): Promise<SyncAnswer> {
  const first = await fetchSyncPage(target, options, 1, null);
  if (options.isFirstPageOnly || first.pageCount === 1) return first;
  // Only a walk through the pages is bounded: a peek of one file a page (status) counts thousands.
  if (first.pageCount > MAX_PAGES) throw malformed();
  const pages: SyncFile[][] = [first.files];
  let next = 2;
  let done = 1;
  const worker = async () => {
    while (next <= first.pageCount) {
      const page = next++;
      pages[page - 1] = (await fetchSyncPage(target, options, page, first.head)).files;
      options.onPage?.(++done, first.pageCount);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAGES_IN_FLIGHT, first.pageCount - 1) }, worker));
  return { ...first, files: pages.flat(), page: 1, pageCount: 1 };
}

/** One page of an answer, checked; `head` (from page 1) pins it to the same store commit. */
export async function fetchSyncPage(target: ApiTarget, options: FetchSyncOptions, page: number, head: string | null): Promise<SyncAnswer> {
  const query = new URLSearchParams({ page: String(page), pageSize: String(options.pageSize ?? PAGE_SIZE), client: options.clientVersion });
  if (options.since) query.set("since", options.since);
  if (head) query.set("head", head);
  if (options.proposalIds.length) query.set("proposals", options.proposalIds.join(","));
  if (options.isPeek) query.set("peek", "1");
  const payload = await callTeammemApi<unknown>(target, "GET", `/api/projects/${encodeURIComponent(options.projectId)}/sync?${query}`);
  const parsed = SyncAnswer.safeParse(payload);
  if (!parsed.success || parsed.data.projectId !== options.projectId) throw malformed();
  return parsed.data;
}

export type SendProposalOptions = { projectId: string; item: OutboxItem; provenance: Record<string, unknown> };

/** Submits one outbox item; a retry with its key answers with the same proposal. */
export async function sendSyncProposal(target: ApiTarget, { projectId, item, provenance }: SendProposalOptions): Promise<SyncProposalAnswer> {
  const payload = await callTeammemApi<unknown>(target, "POST", `/api/projects/${encodeURIComponent(projectId)}/sync/proposals`, {
    path: item.path,
    content: item.content,
    baseBlob: item.baseBlob,
    idempotencyKey: item.key,
    provenance,
  });
  const parsed = SyncProposalAnswer.safeParse(payload);
  if (!parsed.success) throw malformed();
  return parsed.data;
}

const CancelledAnswer = z.object({ proposalId: z.nullable(z.string()), state: z.nullable(z.string()) });

/** Withdraws what a dropped change's key made, if it reached the server (its answer lost). */
export async function cancelSyncSubmission(target: ApiTarget, { projectId, key }: { projectId: string; key: string }): Promise<z.infer<typeof CancelledAnswer>> {
  const parsed = CancelledAnswer.safeParse(await callTeammemApi<unknown>(target, "POST", `/api/projects/${encodeURIComponent(projectId)}/sync/proposals/cancel`, { idempotencyKey: key }));
  if (!parsed.success) throw malformed();
  return parsed.data;
}

/** Takes the caller's own proposal back (a change their folder no longer asks for). */
export async function withdrawSyncProposal(target: ApiTarget, { projectId, proposalId }: { projectId: string; proposalId: string }): Promise<void> {
  await callTeammemApi<unknown>(target, "POST", `/api/projects/${encodeURIComponent(projectId)}/proposals/${encodeURIComponent(proposalId)}/withdraw`);
}

function malformed(): AppError {
  return new AppError("SERVER_UNAVAILABLE", "The teammem server sent an answer this client cannot read; nothing was written. Check that client and server versions match (teammem --version).", { details: { isMalformedAnswer: true } });
}
