import { describe, expect, it } from "vitest";
import { escapeControlCharacters } from "@/lib/memdir/escape-control-characters";

describe("escapeControlCharacters", () => {
  it("a reviewer's reason with terminal sequences prints as visible escapes, not as a new title, a cleared screen or red text", () => {
    expect(escapeControlCharacters("no\u001b]0;title\u0007\u001b[2J\u001b[31m thanks")).toBe("no\\x1b]0;title\\x07\\x1b[2J\\x1b[31m thanks");
  });

  it("a name with a newline or a carriage return stays on one line", () => {
    expect(escapeControlCharacters("new\nline.md")).toBe("new\\nline.md");
    expect(escapeControlCharacters("fake\r- [user] other.md")).toBe("fake\\r- [user] other.md");
  });

  it("bidirectional overrides and isolates, DEL, C1 controls and line separators are escaped; a tab, accents and dashes are not", () => {
    expect(escapeControlCharacters("invoice\u202Edm.md")).toBe("invoice\\u202edm.md");
    expect(escapeControlCharacters("a\u2066b\u2069c\u007f\u009b\u2028")).toBe("a\\u2066b\\u2069c\\x7f\\x9b\\u2028");
    expect(escapeControlCharacters("café — déjà\tvu")).toBe("café — déjà\tvu");
  });
});
