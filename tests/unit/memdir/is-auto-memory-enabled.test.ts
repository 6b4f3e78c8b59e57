import { describe, expect, it } from "vitest";
import { isAutoMemoryEnabled, isTeamMemoryEnabled } from "@/lib/memdir/is-auto-memory-enabled";

describe("isAutoMemoryEnabled", () => {
  it("P6: enabled by default", () => {
    expect(isAutoMemoryEnabled({ env: {} })).toEqual({ isEnabled: true, reason: "enabled by default" });
  });

  it("P6: the env switch wins over everything, including settings that enable it", () => {
    expect(isAutoMemoryEnabled({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" }, autoMemoryEnabled: true }).isEnabled).toBe(false);
    expect(isAutoMemoryEnabled({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "0" } }).isEnabled).toBe(true);
  });

  it("P6: --bare, remote without storage and settings each disable it, in that order", () => {
    expect(isAutoMemoryEnabled({ env: {}, isBare: true, autoMemoryEnabled: false }).reason).toBe("started with --bare");
    expect(isAutoMemoryEnabled({ env: {}, isRemoteWithoutStorage: true }).reason).toMatch(/remote/);
    expect(isAutoMemoryEnabled({ env: {}, autoMemoryEnabled: false }).reason).toMatch(/autoMemoryEnabled/);
  });

  it("T1: team memory requires auto memory", () => {
    expect([isTeamMemoryEnabled({ env: {} }), isTeamMemoryEnabled({ env: {}, isBare: true })]).toEqual([true, false]);
  });
});
