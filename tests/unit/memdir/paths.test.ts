import { describe, expect, it } from "vitest";
import { privateMemoryDir, sanitizeProjectPath, teamMemoryDir } from "@/lib/memdir/paths";

describe("paths", () => {
  it("C1: every UTF-16 unit outside [A-Za-z0-9] becomes -, runs kept", () => {
    expect(sanitizeProjectPath("/Users/ann/my_app")).toBe("-Users-ann-my-app");
    expect(sanitizeProjectPath("/a b/ü😀")).toBe("-a-b----");
  });

  it("C1: long paths are matched by their 200-unit prefix", () => {
    expect(sanitizeProjectPath("/" + "x".repeat(300))).toBe("-" + "x".repeat(199));
  });

  it("P1, T1: default private and team directories", () => {
    expect(privateMemoryDir("/h/.claude", "/repo")).toBe("/h/.claude/projects/-repo/memory");
    expect(teamMemoryDir("/h/.claude/projects/-repo/memory")).toBe("/h/.claude/projects/-repo/memory/team");
  });
});
