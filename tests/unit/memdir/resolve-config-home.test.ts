import { describe, expect, it } from "vitest";
import { expandHome, resolveConfigHome } from "@/lib/memdir/resolve-config-home";

describe("resolveConfigHome", () => {
  it("C3: CLAUDE_CONFIG_DIR wins, else ~/.claude", () => {
    expect(resolveConfigHome({}, "/home/ann")).toBe("/home/ann/.claude");
    expect(resolveConfigHome({ CLAUDE_CONFIG_DIR: "/srv/claude" }, "/home/ann")).toBe("/srv/claude");
    expect(resolveConfigHome({ CLAUDE_CONFIG_DIR: "~/alt" }, "/home/ann")).toBe("/home/ann/alt");
    expect(resolveConfigHome({ CLAUDE_CONFIG_DIR: "  " }, "/home/ann")).toBe("/home/ann/.claude");
  });

  it("P2: ~ and ~/ expand, ~user does not", () => {
    expect([expandHome("~", "/h"), expandHome("~/m", "/h"), expandHome("~bob/m", "/h")]).toEqual(["/h", "/h/m", "~bob/m"]);
  });
});
