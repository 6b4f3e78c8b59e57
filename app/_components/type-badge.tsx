import type { MemoryType } from "@/lib/memdir/frontmatter";

export function TypeBadge({ type }: { type: MemoryType | null }) {
  return <span className={`badge type-${type ?? "untyped"}`}>{type ?? "no type"}</span>;
}
