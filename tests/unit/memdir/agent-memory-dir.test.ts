import { describe, expect, it } from "vitest";
import { agentMemoryDir } from "@/lib/memdir/agent-memory-dir";

describe("agentMemoryDir", () => {
  const base = { configHome: "/h/.claude", projectRoot: "/repo", agentType: "plugin:code-reviewer" };

  it("G1, G2: three scopes; `:` becomes `-`", () => {
    expect(agentMemoryDir({ ...base, scope: "user" })).toBe("/h/.claude/agent-memory/plugin-code-reviewer");
    expect(agentMemoryDir({ ...base, scope: "project" })).toBe("/repo/.claude/agent-memory/plugin-code-reviewer");
    expect(agentMemoryDir({ ...base, scope: "local" })).toBe("/repo/.claude/agent-memory-local/plugin-code-reviewer");
  });
});
