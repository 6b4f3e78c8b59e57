import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatInjection } from "@/lib/recall/format-injection";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();
const NOW = new Date("2026-11-28T12:00:00.000Z");

describe("formatInjection (R7, A3, C8)", () => {
  it("normalises a BOM and CRLF line ends before showing the file", async () => {
    const memoryDir = await tempDir("recall-inject-");
    await writeFile(path.join(memoryDir, "user_role.md"), "\uFEFF---\r\ndescription: Go engineer\r\ntype: user\r\n---\r\nBody\r\n");
    const injection = formatInjection({ memoryDir, file: "user_role.md", mtime: NOW, now: NOW, displayDir: "/home/ann/.claude/projects/-x/memory" });
    expect(injection).toBe(
      "<system-reminder>\nMemory (saved today): /home/ann/.claude/projects/-x/memory/user_role.md:\n\n---\ndescription: Go engineer\ntype: user\n---\nBody\n</system-reminder>",
    );
  });

  it("reads only the start of a huge file and still says it was cut", async () => {
    const memoryDir = await tempDir("recall-inject-");
    await writeFile(path.join(memoryDir, "big.md"), `---\ndescription: big\n---\n${"x".repeat(200_000)}`);
    const injection = formatInjection({ memoryDir, file: "big.md", mtime: NOW, now: NOW, displayDir: memoryDir });
    expect(injection.length).toBeLessThan(4096 + 1000);
    expect(injection).toContain(`Read the whole file at ${memoryDir}/big.md.]`);
  });

  it("throws when the file is gone (the caller reports it as unreadable)", async () => {
    const memoryDir = await tempDir("recall-inject-");
    expect(() => formatInjection({ memoryDir, file: "gone.md", mtime: NOW, now: NOW, displayDir: memoryDir })).toThrow();
  });
});
