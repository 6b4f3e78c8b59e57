import { splitFrontmatter } from "../memdir/split-frontmatter";
import { parseHeaderOfFirstLines } from "../memdir/frontmatter";

/** What a memory claims, its description then its body, and the file line each of its lines is on. */
export type ClaimedText = { text: string; fileLine: (line: number) => number };

const DESCRIPTION_KEY = /^description[ \t]*:/;
// `description: >` (a block scalar) or a bare key: the value starts on the next line.
const VALUE_BELOW_KEY = /^description[ \t]*:[ \t]*(?:[|>][-+0-9]*)?[ \t]*(?:#.*)?$/;

/**
 * The description (C4: from a frontmatter closed within the first 30 lines) and the body of a
 * normalised text, with a map from their lines back to the file's, so a finding points at the
 * line `teammem lint` and an editor show. A folded description is one line: its first.
 */
export function readClaimedText(text: string): ClaimedText {
  const description = parseHeaderOfFirstLines(text).description ?? "";
  const block = splitFrontmatter(text);
  const descriptionLines = description.split("\n").length;
  const descriptionLine = block.kind === "closed" && description !== "" ? findDescriptionLine(block.yaml) : 1;
  const bodyLine = countNewlines(text.slice(0, text.length - block.body.length)) + 1;
  return {
    text: `${description}\n${block.body}`,
    fileLine: (line) => (line <= descriptionLines ? descriptionLine + line - 1 : bodyLine + line - descriptionLines - 1),
  };
}

/** The file line the description's value starts on; the YAML starts on line 2, after `---`. */
function findDescriptionLine(yaml: string): number {
  const lines = yaml.split("\n");
  const index = lines.findIndex((line) => DESCRIPTION_KEY.test(line));
  if (index === -1) return 2; // a key written in another YAML form: the frontmatter's first line
  return index + 2 + (VALUE_BELOW_KEY.test(lines[index]!) ? 1 : 0);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}
