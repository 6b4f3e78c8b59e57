/**
 * js-yaml 3 resolves an alias to a shared reference, so loading an alias "bomb" is cheap, but
 * anything that walks or serialises the result (JSON output, a re-dump, a deep compare) expands
 * it: nine levels of nine references is 387 million nodes. Hand-written memory frontmatter never
 * needs more than a handful of aliases, so we refuse more than this before parsing.
 */
export const MAX_YAML_ALIASES = 8;
/** A parsed frontmatter bigger than this, counting every alias as a copy, is refused. */
export const MAX_YAML_NODES = 10_000;
/** Frontmatter text over this size is refused before YAML sees it. */
export const MAX_YAML_CHARS = 64 * 1024;

// An alias is `*name` where a YAML node may start: after `key: `, `- `, `? `, `[`, `{`, `,` or
// at the start of a line. `*bold*` in the middle of a plain sentence is text, not an alias.
const ALIAS_REFERENCE = /(?:^|[:\-?]\s|[[{,])\s*\*[^\s,[\]{}]+/gm;

export function countAliasReferences(yaml: string): number {
  if (!yaml.includes("*")) return 0;
  return yaml.match(ALIAS_REFERENCE)?.length ?? 0;
}

/** True when the value, with every alias expanded, holds more than `budget` nodes. */
export function exceedsNodeBudget(value: unknown, budget: number = MAX_YAML_NODES): boolean {
  let remaining = budget;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (--remaining < 0) return true;
    if (typeof node !== "object" || node === null) continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (children.length > remaining) return true;
    for (const child of children) stack.push(child);
  }
  return false;
}
