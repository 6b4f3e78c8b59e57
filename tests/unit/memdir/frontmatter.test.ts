import { describe, expect, it } from "vitest";
import { parseFrontmatter, parseMemoryHeader, serializeMemory, stringifyField } from "@/lib/memdir/frontmatter";

const memory = (yaml: string, body = "Body.\n"): string => `---\n${yaml}\n---\n${body}`;

describe("parseMemoryHeader", () => {
  it("F1: reads name, description and type, keeping unknown fields", () => {
    const header = parseMemoryHeader(memory("name: Concise replies\ndescription: No trailing summary\ntype: feedback\nowner: ann"));
    expect(header).toMatchObject({ name: "Concise replies", description: "No trailing summary", type: "feedback", status: "ok" });
    expect(header.fields.owner).toBe("ann");
  });

  it("C4: strips a BOM and CRLF before parsing", () => {
    const header = parseMemoryHeader("\uFEFF---\r\nname: A\r\ndescription: Windows file\r\ntype: user\r\n---\r\nBody\r\n");
    expect(header).toMatchObject({ name: "A", description: "Windows file", type: "user" });
  });

  it("C4: a file that does not start with --- has no fields", () => {
    expect(parseMemoryHeader("Just notes\n---\ndescription: x\n---\n")).toMatchObject({ description: null, status: "none" });
    expect(parseMemoryHeader("\n---\ndescription: x\n---\n").status).toBe("none");
  });

  it("C4: an unclosed frontmatter yields no description", () => {
    expect(parseMemoryHeader("---\nname: A\ndescription: never closed\n")).toMatchObject({ description: null, status: "unclosed" });
  });

  it("C4: bad YAML is retried with simple values quoted", () => {
    const header = parseMemoryHeader(memory('name: Fix: the "a" case\ndescription: use #2, not [1]: see * note\ntype: project'));
    expect(header).toMatchObject({ name: 'Fix: the "a" case', description: "use #2, not [1]: see * note", type: "project", status: "retried" });
  });

  it("C4: YAML that fails even after quoting counts as empty frontmatter", () => {
    expect(parseMemoryHeader(memory("name: [unclosed\n  - : :\n\t- bad"))).toMatchObject({ name: null, fields: {}, status: "invalid-yaml" });
  });

  it("C4: a non-object result (a list, a scalar) counts as empty", () => {
    expect(parseMemoryHeader(memory("- a\n- b"))).toMatchObject({ fields: {}, status: "not-object" });
    expect(parseMemoryHeader(memory("just text"))).toMatchObject({ fields: {}, status: "not-object" });
  });

  it("C4: empty input and empty frontmatter are files without fields, not errors", () => {
    expect(parseMemoryHeader("")).toMatchObject({ name: null, status: "none" });
    expect(parseMemoryHeader("---\n---\nBody")).toMatchObject({ fields: {}, status: "ok" });
  });

  it("C4: type counts only when exactly one of the four values", () => {
    expect(parseMemoryHeader(memory("type: Feedback")).type).toBeNull();
    expect(parseMemoryHeader(memory("type: note")).type).toBeNull();
    expect(parseMemoryHeader(memory("type: reference")).type).toBe("reference");
  });

  it("C4: an alias bomb is refused before anything expands it", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    const header = parseMemoryHeader(memory(`description: bomb\n${levels.join("\n")}`));
    expect(header).toMatchObject({ description: null, fields: {}, status: "alias-limit" });
    expect(() => JSON.stringify(header)).not.toThrow();
  });

  it("C4: a few aliases and `*emphasis*` inside text are still fine", () => {
    const header = parseMemoryHeader(memory("base: &base x\ncopy: *base\ndescription: use the *fast* path"));
    expect(header).toMatchObject({ description: "use the *fast* path", status: "ok" });
    expect(header.fields.copy).toBe("x");
  });
});

describe("parseFrontmatter", () => {
  it("C4: returns the body after the closing line", () => {
    expect(parseFrontmatter("---\nname: A\n---\nLine 1\nLine 2\n").body).toBe("Line 1\nLine 2\n");
  });
});

describe("serializeMemory", () => {
  it("F1: writes fields in order with values on one line, and reads back the same", () => {
    const long = "a description that is long enough that js-yaml would fold it onto a second line by default ".repeat(2).trim();
    const text = serializeMemory({ name: "A", description: long, type: "user" }, "Body\n");
    expect(text.split("\n").filter((line) => line.startsWith("description:"))).toHaveLength(1);
    expect(parseMemoryHeader(text)).toMatchObject({ name: "A", description: long, type: "user" });
  });

  it("F1: stringifyField quotes values YAML would misread", () => {
    expect(stringifyField("description", "a: b")).toEqual(["description: 'a: b'"]);
  });
});
