import { z } from "zod";
import { parseInputOrThrow } from "./parse-input";

export type PagingLimits = { defaultPageSize: number; maxPageSize: number };
export type Paging = { page: number; pageSize: number };

const MAX_PAGE = 1_000_000;

/** Decimal digits only (a minus sign gets "too small"): `Number()` would also take `0x2`, `1e1`, `+2`, ` 2` or `3.0`. */
const wholeNumber = z
  .string()
  .regex(/^-?[0-9]{1,9}$/, { error: "must be a whole number written in digits" })
  .transform(Number);

/**
 * `page` and `pageSize` from a query string, for every route that answers a page at a time:
 * absent, each takes its default (page 1); present, it must be a whole number in range, or the
 * answer is a 400 naming it. Never silently replaced: a client asking for 501 must not believe
 * it got them all.
 */
export function readPaging(query: URLSearchParams, limits: PagingLimits): Paging {
  const schema = z.object({
    page: wholeNumber.pipe(z.number().int().min(1).max(MAX_PAGE)).default(1),
    pageSize: wholeNumber.pipe(z.number().int().min(1).max(limits.maxPageSize)).default(limits.defaultPageSize),
  });
  return parseInputOrThrow(schema, { page: query.get("page") ?? undefined, pageSize: query.get("pageSize") ?? undefined }, "query");
}
