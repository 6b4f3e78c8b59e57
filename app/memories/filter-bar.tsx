import Link from "next/link";
import { MEMORY_TYPES } from "@/lib/memdir/frontmatter";
import { AGE_BUCKET_IDS, AGE_BUCKETS, type FindingFilter, type MemorySort, type AgeBucket } from "@/lib/memories/filter-memories";
import type { MemoryCounts } from "@/lib/memories/list-memories";
import { FRESHNESS_STATES, isStaleSignalKind, SIGNAL_LABEL, type StaleSignalKind } from "@/lib/stale/stale-signal";

export type QueryLink = (changes: Record<string, string | number | undefined>) => string;

type Props = {
  counts: MemoryCounts;
  total: number;
  query: { type?: string; age?: AgeBucket; finding?: FindingFilter; freshness?: string; reason?: string; sort: MemorySort };
  link: QueryLink;
};

/** The filters as links (the address is the state): type, age, findings and sort order. */
export function FilterBar({ counts, total, query, link }: Props) {
  const types = [...MEMORY_TYPES, ...(counts.byType.untyped ? ["untyped" as const] : [])];
  return (
    <>
      <div className="filters" aria-label="Type">
        <span className="filter-label">Type</span>
        <Link href={link({ type: undefined })} aria-current={!query.type}>All ({total})</Link>
        {types.map((type) => (
          <Link key={type} href={link({ type })} aria-current={query.type === type}>{type} ({counts.byType[type] ?? 0})</Link>
        ))}
      </div>
      <div className="filters" aria-label="Age">
        <span className="filter-label">Age</span>
        <Link href={link({ age: undefined })} aria-current={!query.age}>any age</Link>
        {AGE_BUCKET_IDS.map((age) => (
          <Link key={age} href={link({ age })} aria-current={query.age === age}>{AGE_BUCKETS[age].label} ({counts.byAge[age]})</Link>
        ))}
      </div>
      <div className="filters" aria-label="Findings">
        <span className="filter-label">Findings</span>
        <Link href={link({ finding: undefined })} aria-current={!query.finding}>any</Link>
        <Link href={link({ finding: "any" })} aria-current={query.finding === "any"}>has findings ({counts.withFindings})</Link>
        <Link href={link({ finding: "errors" })} aria-current={query.finding === "errors"}>has errors ({counts.withErrors})</Link>
        {counts.byRule.map(({ rule, count }) => (
          <Link key={rule} href={link({ finding: rule })} aria-current={query.finding === rule}>{rule} ({count})</Link>
        ))}
      </div>
      {counts.byFreshness && (
        <div className="filters" aria-label="Freshness">
          <span className="filter-label">Freshness</span>
          <Link href={link({ freshness: undefined, reason: undefined })} aria-current={!query.freshness && !query.reason}>any</Link>
          {FRESHNESS_STATES.map((state) => (
            <Link key={state} href={link({ freshness: state })} aria-current={query.freshness === state}>{state} ({counts.byFreshness?.[state] ?? 0})</Link>
          ))}
          {(counts.byReason ?? []).filter(({ reason }) => isStaleSignalKind(reason)).map(({ reason, count }) => (
            <Link key={reason} href={link({ reason })} aria-current={query.reason === reason}>{SIGNAL_LABEL[reason as StaleSignalKind]} ({count})</Link>
          ))}
        </div>
      )}
      <div className="filters" aria-label="Sort">
        <span className="filter-label">Sort</span>
        <Link href={link({ sort: undefined })} aria-current={query.sort === "newest"}>newest first</Link>
        <Link href={link({ sort: "oldest" })} aria-current={query.sort === "oldest"}>oldest first</Link>
        {counts.byFreshness && <Link href={link({ sort: "stalest" })} aria-current={query.sort === "stalest"}>stalest first</Link>}
      </div>
    </>
  );
}
