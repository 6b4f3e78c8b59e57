import * as z from "zod/mini";
import { parseJsonOrNull } from "../parse-json";

/**
 * C10 on the server: where a session's extraction stopped, the last processed message's uuid
 * and its timestamp. The uuid alone cannot place a copy of the session that lacks that message
 * (an older, shorter copy sent late, or by a second client): it was read from the start, proposed
 * again, and the cursor moved back. The timestamp places it.
 */
export type SessionCursor = { uuid: string; timestamp: string | null };

const StoredCursor = z.object({ uuid: z.string(), timestamp: z.nullable(z.string()) });

/** The `cursor` column holds this as JSON; a plain uuid (rows written before) reads as a cursor without a time. */
export function readSessionCursor(stored: string | null): SessionCursor | null {
  if (stored === null) return null;
  const parsed = StoredCursor.safeParse(stored.startsWith("{") ? parseJsonOrNull(stored) : null);
  return parsed.success ? parsed.data : { uuid: stored, timestamp: null };
}

export function writeSessionCursor(cursor: SessionCursor | null): string | null {
  return cursor === null ? null : JSON.stringify(cursor);
}

/** Whether a message written at `timestamp` was already processed by a run that stopped at `cursorTime`. */
export function isAtOrBeforeCursor(timestamp: string | null, cursorTime: string | null | undefined): boolean {
  if (!timestamp || !cursorTime) return false;
  const time = Date.parse(timestamp);
  const limit = Date.parse(cursorTime);
  return Number.isFinite(time) && Number.isFinite(limit) && time <= limit;
}
