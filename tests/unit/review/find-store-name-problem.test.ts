import { describe, expect, it } from "vitest";
import { findStoreNameProblem } from "@/lib/review/find-store-name-problem";

describe("findStoreNameProblem", () => {
  it("accepts plain names and subfolders up to three deep", () => {
    for (const name of ["feedback_testing.md", "payments/reference_grafana.md", "a/b/c/project_x.md", "café_notes.md", "日本語メモ.md"]) {
      expect(findStoreNameProblem(name), name).toBeNull();
    }
  });

  it("refuses the index's name in other letters, which a macOS or Windows disk holds as the index itself", () => {
    for (const name of ["memory.md", "Memory.MD", "notes/memory.md"]) expect(findStoreNameProblem(name), name).toMatch(/is MEMORY\.md in other letters/);
    expect(findStoreNameProblem("MEMORY.md")).toBeNull(); // the index itself: the store's own file
    expect(findStoreNameProblem("memory_notes.md")).toBeNull();
  });

  it("refuses a folder named MEMORY.md in any letters: it would stand where that folder's index belongs", () => {
    for (const name of ["MEMORY.md/project_ledger.md", "team/memory.MD/x.md", "a/MEMORY.md/b/c.md"]) expect(findStoreNameProblem(name), name).toMatch(/folder may not be named MEMORY\.md/);
  });

  it("refuses a name deeper than three folders", () => {
    expect(findStoreNameProblem("a/b/c/d/x.md")).toMatch(/more than 3 folders deep/);
  });

  it("refuses bidirectional overrides and isolates, naming the code point", () => {
    expect(findStoreNameProblem("invoice\u202Edm.md")).toMatch(/invisible or control character \(U\+202E\)/);
    expect(findStoreNameProblem("notes\u2066x\u2069.md")).toMatch(/U\+2066/);
  });

  it("refuses zero-width characters, the BOM, soft hyphens and controls", () => {
    for (const name of ["fee\u200Bdback.md", "a\u200Db.md", "\uFEFFx.md", "soft\u00ADhyphen.md", "bell\u0007.md", "tab\there.md", "new\nline.md"]) {
      expect(findStoreNameProblem(name), JSON.stringify(name)).toMatch(/invisible or control character/);
    }
  });

  it("refuses what shows as nothing or as a blank: joiners and selectors, Hangul fillers, the braille blank, line separators", () => {
    for (const char of ["\u034F", "\uFE0F", "\u{E0100}", "\u115F", "\u1160", "\u3164", "\u2800", "\u2028", "\u2029"]) {
      const name = `project_look${char}.md`;
      expect(findStoreNameProblem(name), JSON.stringify(name)).toMatch(/invisible or control character/);
    }
    expect(findStoreNameProblem("Ünïcødé_日本語_notes.md")).toBeNull();
  });

  it("refuses names whose NFKC form differs, and says how to write them", () => {
    expect(findStoreNameProblem("ｆｅｅｄｂａｃｋ.md")).toBe('the name has look-alike characters; write it as "feedback.md"');
    expect(findStoreNameProblem("\uFB01nance.md")).toMatch(/"finance\.md"/);
  });

  it("keeps the path-safety rules: traversal, absolute, backslash, encoded dots", () => {
    expect(findStoreNameProblem("../x.md")).toMatch(/`\.\.` segment/);
    expect(findStoreNameProblem("/etc/x.md")).toMatch(/absolute/);
    expect(findStoreNameProblem("a\\b.md")).toMatch(/backslash/);
    expect(findStoreNameProblem("%2e%2e/x.md")).toMatch(/`\.\.` segment/);
  });

  it("refuses hidden segments and names a Windows checkout cannot hold", () => {
    expect(findStoreNameProblem(".git/config.md")).toMatch(/starts with a dot/);
    expect(findStoreNameProblem("notes/.hidden.md")).toMatch(/starts with a dot/);
    expect(findStoreNameProblem("what?.md")).toMatch(/not allowed in file names on Windows/);
    expect(findStoreNameProblem("con.md")).toMatch(/reserved device name/);
    for (const name of ["conin$.md", "CONOUT$.md", "con .md", "nul  .md", "a/aux .md", "LPT1 .md"]) expect(findStoreNameProblem(name)).toMatch(/reserved device name/);
    for (const name of ["console.md", "conin.md", "null.md", "a/auxiliary.md", "com10.md"]) expect(findStoreNameProblem(name)).toBeNull();
    expect(findStoreNameProblem("folder. /x.md")).toMatch(/ends with a dot or a space/);
  });

  it("refuses a segment longer than 100 bytes", () => {
    expect(findStoreNameProblem(`${"é".repeat(51)}.md`)).toMatch(/longer than 100 bytes/);
  });
});
