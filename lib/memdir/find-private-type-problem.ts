import { parseMemoryHeader } from "./frontmatter";
import type { LintRule } from "./lint-finding";
import { validateMemory } from "./validate-memory";

/** The server's findings that mean it cannot read the memory's type (lib/memdir/validate-memory.ts). */
const TYPE_UNREADABLE = new Set<LintRule>(["unknown-type", "frontmatter-invalid"]);

/**
 * T2 before a memory leaves the machine: why it may not be offered to the team, or null. The type
 * is read as the server reads it (exactly one of the four, in lower case; a key given twice makes
 * the frontmatter invalid YAML, so no field is read). A `user` memory stays private. So does one
 * whose type the server cannot read (`type: User`, `type: project` then `type: user`): the server
 * would take it as untyped and put it in the review queue for every lead to read, though it may
 * well be a `user` memory written loosely; its format blocks approval until it is fixed anyway.
 */
export function findPrivateTypeProblem(file: string, content: string): string | null {
  const { type } = parseMemoryHeader(content);
  if (type === "user") return "is a `user` memory: it describes you (role, preferences, knowledge), so it stays private";
  if (type !== null) return null;
  const unreadable = validateMemory({ file, text: content, mtime: new Date() }).find((finding) => finding.severity === "error" && TYPE_UNREADABLE.has(finding.rule));
  if (!unreadable) return null;
  const fix = unreadable.fix ? ` ${unreadable.fix}` : "";
  return `cannot be sent as it is: ${unreadable.message}${fix} Its type decides whether it may leave this machine (a \`user\` memory stays private)`;
}
