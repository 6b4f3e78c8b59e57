/** What JSON's grammar allows that teammem cannot take, with the field it sits in ("body" for the whole). */
export type JsonProblem = { field: string; message: string };

type Where = { parent: Where | null; key: string } | null;
type Pending = { value: unknown; depth: number; where: Where };

/**
 * The first problem of a parsed JSON document, in document order, or null: a string or key that
 * is not valid Unicode (a lone surrogate from an escape like `\ud800`: the database refuses it,
 * and it would become a 500), or nesting deeper than `maxDepth` (every recursive step after
 * parsing — validation, secret masking, JSON.stringify — would overflow the stack). Walks with a
 * stack of its own, so no document can overflow this walk either.
 */
export function findJsonProblem(document: unknown, maxDepth: number): JsonProblem | null {
  const pending: Pending[] = [{ value: document, depth: 1, where: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth, where } = next;
    if (typeof value === "string") {
      if (!value.isWellFormed()) return { field: fieldName(where), message: `holds ${loneSurrogateOf(value)}; send valid Unicode text` };
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth > maxDepth) return { field: "body", message: `nested deeper than ${maxDepth} levels` };
    const entries = Object.entries(value);
    for (const [key] of entries) {
      if (!key.isWellFormed()) return { field: fieldName(where), message: `a key holds ${loneSurrogateOf(key)}; send valid Unicode text` };
    }
    // Pushed last to first, so the first in the document is looked at first.
    for (let index = entries.length - 1; index >= 0; index--) pending.push({ value: entries[index]![1], depth: depth + 1, where: { parent: where, key: entries[index]![0] } });
  }
  return null;
}

/** The field as validation errors name it: `items.0.proposalId`. */
function fieldName(where: Where): string {
  const keys: string[] = [];
  for (let at = where; at; at = at.parent) keys.push(at.key);
  return keys.length ? keys.reverse().join(".") : "body";
}

function loneSurrogateOf(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(index + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) index++;
    else if (unit >= 0xd800 && unit <= 0xdfff) return `a lone surrogate (U+${unit.toString(16).toUpperCase()})`;
  }
  return "a lone surrogate";
}
