import { describe, expect, it } from "vitest";
import { formatInjectionText } from "@/lib/recall/format-injection";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const TEXT = "---\nname: Ledger\ndescription: where entries post\ntype: reference\n---\nSee src/payments/ledger.go.\n";

describe("a stale memory's injection carries the reasons (beyond A3's age warning)", () => {
  it("lists the doubts after the header, so the agent checks them before relying on the memory", () => {
    const injection = formatInjectionText({ text: TEXT, file: "ledger.md", mtime: NOW, now: NOW, displayDir: "/m", doubts: ["src/payments/ledger.go exists nowhere in the code repository at 3f2a9c1."] });
    expect(injection).toBe(
      "<system-reminder>\nMemory (saved today): /m/ledger.md:\nteammem's staleness checks doubt this memory; verify before relying on it:\n- src/payments/ledger.go exists nowhere in the code repository at 3f2a9c1.\n\n" + TEXT.trimEnd() + "\n</system-reminder>",
    );
  });

  it("says nothing more for a memory without doubts, and shows at most three", () => {
    expect(formatInjectionText({ text: TEXT, file: "ledger.md", mtime: NOW, now: NOW, displayDir: "/m", doubts: [] })).not.toContain("doubt");
    const many = formatInjectionText({ text: TEXT, file: "ledger.md", mtime: NOW, now: NOW, displayDir: "/m", doubts: ["a", "b", "c", "d", "e"] });
    expect(many).toContain("- c\n- and 2 more\n");
    expect(many).not.toContain("- d");
  });
});
