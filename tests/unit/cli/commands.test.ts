import { describe, expect, it } from "vitest";
import { COMMANDS } from "@/cli/commands";

describe("the CLI's command registry", () => {
  it("lists each command once, and each entry loads the command it names with the summary --help shows", async () => {
    expect(new Set(COMMANDS.map((entry) => entry.name)).size).toBe(COMMANDS.length);
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
  });
});
