import { describe, expect, it } from "vitest";
import { mergeMemory } from "@/lib/store/merge-memory";

const memory = (fields: string, body: string) => `---\n${fields}---\n${body}`;
const base = memory("name: Testing\ndescription: How we test\ntype: feedback\n", "Run the tests.\n\nUse real databases.\n\nKeep them fast.\n");

describe("mergeMemory", () => {
  it("takes a field changed on one side only, keeping the other side's field change", async () => {
    const ours = base.replace("description: How we test", "description: How the team tests");
    const theirs = base.replace("name: Testing", "name: Testing rules");
    const merged = await mergeMemory(base, ours, theirs);
    expect(merged).toEqual({ isClean: true, text: memory("name: Testing rules\ndescription: How the team tests\ntype: feedback\n", "Run the tests.\n\nUse real databases.\n\nKeep them fast.\n") });
  });

  it("reports a field changed on both sides to different values, and never returns markers", async () => {
    const merged = await mergeMemory(base, base.replace("How we test", "Ours"), base.replace("How we test", "Theirs"));
    expect(merged).toEqual({ isClean: false, conflictingFields: ["description"] });
  });

  it("accepts the same change made on both sides", async () => {
    const changed = base.replace("How we test", "Same");
    expect(await mergeMemory(base, changed, changed.replace("Keep them fast.", "Keep them fast."))).toEqual({ isClean: true, text: changed });
  });

  it("merges body edits in different paragraphs and refuses edits of the same line", async () => {
    const ours = base.replace("Run the tests.", "Run all the tests.");
    const theirs = base.replace("Keep them fast.", "Keep them under a minute.");
    const clean = await mergeMemory(base, ours, theirs);
    expect(clean).toEqual({ isClean: true, text: base.replace("Run the tests.", "Run all the tests.").replace("Keep them fast.", "Keep them under a minute.") });

    const conflicted = await mergeMemory(base, base.replace("Use real databases.", "Use SQLite."), base.replace("Use real databases.", "Use PostgreSQL."));
    expect(conflicted).toEqual({ isClean: false, conflictingFields: ["body"] });
  });

  it("applies a field removal and an added field from the proposal, keeping unknown fields byte for byte", async () => {
    const withExtra = memory("name: Testing\ndescription: How we test\ntype: feedback\nid:   'keep-quoting'\n", "Body\n");
    const ours = withExtra.replace("Body", "Body, edited in the store");
    const theirs = withExtra.replace("type: feedback\n", "").replace("name: Testing\n", "name: Testing\nowner: qa\n");
    const merged = await mergeMemory(withExtra, ours, theirs);
    expect(merged).toEqual({ isClean: true, text: memory("name: Testing\ndescription: How we test\nid:   'keep-quoting'\nowner: qa\n", "Body, edited in the store\n") });
  });

  it("reports both a field and the body when both conflict", async () => {
    const ours = base.replace("How we test", "A").replace("Keep them fast.", "X");
    const theirs = base.replace("How we test", "B").replace("Keep them fast.", "Y");
    expect(await mergeMemory(base, ours, theirs)).toEqual({ isClean: false, conflictingFields: ["description", "body"] });
  });

  it("merges files whose frontmatter cannot be read as whole texts", async () => {
    const broken = "---\n- a list, not fields\n---\nline one\n\nline two\n\nline three\n";
    const merged = await mergeMemory(broken, broken.replace("line one", "line 1"), broken.replace("line three", "line 3"));
    expect(merged).toEqual({ isClean: true, text: "---\n- a list, not fields\n---\nline 1\n\nline two\n\nline 3\n" });
    expect(await mergeMemory(broken, broken.replace("line two", "a"), broken.replace("line two", "b"))).toEqual({ isClean: false, conflictingFields: ["file"] });
  });

  it("merges two additions of the same new file from an empty base only when they agree field by field", async () => {
    const added = memory("name: New\ntype: project\n", "Same body\n");
    expect(await mergeMemory("", added, added)).toEqual({ isClean: true, text: added });
    const other = memory("name: Other\ntype: project\n", "Same body\n");
    expect(await mergeMemory("", added, other)).toMatchObject({ isClean: false, conflictingFields: ["name"] });
  });
});
