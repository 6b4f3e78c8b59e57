import { AppError } from "@/lib/errors";
import { listRecallEvents } from "@/lib/recall/recall-project-memories";
import { getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * GET /api/projects/:id/recall-events?limit=50&before=<nextBefore>: what agents were given, newest
 * first (leads and admins); tries on the Recall page are not among them. `nextBefore` in the
 * answer asks for the page after this one (null on the last page).
 */
export const GET = route<{ id: string }>(access.project("oversee"), async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const limit = readLimit(query.get("limit"));
  const before = readCursor(query.get("before"));
  const page = await listRecallEvents(getDatabase(), params.id, { limit: limit + 1, before });
  const events = page.slice(0, limit);
  const last = events.at(-1);
  return json({ events, nextBefore: page.length > limit && last ? toCursor(last) : null });
});

function readLimit(value: string | null): number {
  if (value === null) return DEFAULT_LIMIT;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_LIMIT) throw new AppError("INVALID_INPUT", `limit: a whole number from 1 to ${MAX_LIMIT}.`, { details: { field: "limit" } });
  return limit;
}

// Opaque to clients: the time and id of the last event shown.
function toCursor(event: { at: Date; id: string }): string {
  return Buffer.from(`${event.at.getTime()}.${event.id}`, "utf8").toString("base64url");
}

function readCursor(value: string | null): { at: Date; id: string } | undefined {
  if (value === null) return undefined;
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(value, "base64url").toString("utf8"));
  if (!match) throw new AppError("INVALID_INPUT", "before: not a cursor this route gave (use the answer's nextBefore).", { details: { field: "before" } });
  return { at: new Date(Number(match[1])), id: match[2]! };
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
