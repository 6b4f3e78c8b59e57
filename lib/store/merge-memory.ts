import { parseFrontmatter, type ParsedFrontmatter } from "../memdir/frontmatter";
import { updateMemoryText } from "../memdir/update-memory-text";
import { mergeTexts } from "./git";

export type MemoryMerge = { isClean: true; text: string } | { isClean: false; conflictingFields: string[] };

/** Name used in `conflictingFields` for the Markdown body. */
export const BODY_FIELD = "body";
/** Name used when frontmatter could not be read, so the whole file was merged as text. */
export const WHOLE_FILE_FIELD = "file";

// Frontmatter we can read field by field; anything else is merged as plain text.
const READABLE: ParsedFrontmatter["status"][] = ["ok", "retried", "none"];

/**
 * Three-way merge of a memory file: `ours` is the store's head, `theirs` the proposal, both
 * changed from `base`. Frontmatter merges field by field (a field changed on one side only takes
 * that side; changed on both to different values is a conflict), the body with `git merge-file`.
 * The result starts from `ours` and rewrites only what `theirs` changed, so untouched fields keep
 * every byte. A conflict returns the fields in conflict and never a text with markers.
 */
export async function mergeMemory(base: string, ours: string, theirs: string): Promise<MemoryMerge> {
  if (ours === theirs || base === theirs) return { isClean: true, text: ours };
  if (base === ours) return { isClean: true, text: theirs };

  const [baseParsed, oursParsed, theirsParsed] = [base, ours, theirs].map(parseFrontmatter) as [ParsedFrontmatter, ParsedFrontmatter, ParsedFrontmatter];
  if (![baseParsed, oursParsed, theirsParsed].every((parsed) => READABLE.includes(parsed.status))) {
    const merged = await mergeTexts(base, ours, theirs);
    return merged.isClean ? merged : { isClean: false, conflictingFields: [WHOLE_FILE_FIELD] };
  }

  const fields = mergeFields(baseParsed.fields, oursParsed.fields, theirsParsed.fields);
  const body = await mergeBody(baseParsed.body, oursParsed.body, theirsParsed.body);
  const conflictingFields = [...fields.conflicts, ...(body.isClean ? [] : [BODY_FIELD])];
  if (!body.isClean || conflictingFields.length > 0) return { isClean: false, conflictingFields };

  const hasFieldChanges = Object.keys(fields.fromTheirs).length > 0;
  const newBody = body.text === oursParsed.body ? undefined : body.text;
  if (!hasFieldChanges && newBody === undefined) return { isClean: true, text: ours };
  // A file without frontmatter is all body: keep it that way unless a field must be added.
  if (!hasFieldChanges && oursParsed.status === "none") return { isClean: true, text: body.text };
  return { isClean: true, text: updateMemoryText(ours, { fields: fields.fromTheirs, ...(newBody === undefined ? {} : { body: newBody }) }) };
}

type FieldMerge = { fromTheirs: Record<string, unknown>; conflicts: string[] };

function mergeFields(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>): FieldMerge {
  const fromTheirs: Record<string, unknown> = {};
  const conflicts: string[] = [];
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const [baseValue, ourValue, theirValue] = [base[key], ours[key], theirs[key]].map(comparable);
    if (ourValue === theirValue || theirValue === baseValue) continue;
    if (ourValue === baseValue) fromTheirs[key] = theirs[key]; // undefined removes the field
    else conflicts.push(key);
  }
  return { fromTheirs, conflicts };
}

async function mergeBody(base: string, ours: string, theirs: string): Promise<{ isClean: true; text: string } | { isClean: false }> {
  if (ours === theirs || base === theirs) return { isClean: true, text: ours };
  if (base === ours) return { isClean: true, text: theirs };
  return mergeTexts(base, ours, theirs);
}

// Values as YAML parsed them (strings, numbers, dates, lists, maps); absent is its own value.
function comparable(value: unknown): string {
  return value === undefined ? "\u0000absent" : JSON.stringify(value);
}
