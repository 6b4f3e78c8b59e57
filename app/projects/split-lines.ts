/** A textarea's lines without blanks: how the forms take several repository URLs. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
}
