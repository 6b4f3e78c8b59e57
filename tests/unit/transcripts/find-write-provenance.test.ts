import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findWriteProvenance } from "@/lib/transcripts/find-write-provenance";
import { useTempDirs } from "../../helpers/temp-dir";
import { TranscriptBuilder } from "../../helpers/transcript-lines";

const tempDir = useTempDirs();
const TOKEN = ["xoxb", "-2847561930274-5830194726385-", "Hq7XkR2mWp9ZtL4vN8cB3yJd"].join("");

describe("findWriteProvenance", () => {
  it("names background extraction for a memory_saved line and the main agent for a Write, with capped redacted messages", async () => {
    const dir = await tempDir();
    const memory = "/home/omar/.claude/projects/-repo/memory/team/feedback_pnpm.md";
    const background = new TranscriptBuilder();
    background.user(`Use pnpm here, never npm. The Slack bot is ${TOKEN}.`);
    background.assistant([{ text: "Got it." }]);
    background.system("memory_saved", { writtenPaths: [memory] });
    await writeFile(path.join(dir, `${background.sessionId}.jsonl`), background.text(true));

    const found = await findWriteProvenance(dir, memory);
    expect(found).toMatchObject({ session: background.sessionId, writtenBy: "background-extraction" });
    expect(found!.messages[0]!.role).toBe("user");
    expect(JSON.stringify(found)).not.toContain(TOKEN);
    expect(Buffer.byteLength(JSON.stringify(found))).toBeLessThan(4096);

    const other = "/home/omar/.claude/projects/-repo/memory/team/project_release.md";
    const main = new TranscriptBuilder();
    main.user("Please save that releases are cut on Tuesdays as a team memory.");
    const reply = main.assistant([{ tool: "Write", id: "toolu_w", input: { file_path: other, content: "---\nname: Release day\n---" } }]);
    main.toolResult("toolu_w", reply.toolLines.toolu_w!, "File created");
    await writeFile(path.join(dir, `${main.sessionId}.jsonl`), main.text());
    expect(await findWriteProvenance(dir, other)).toMatchObject({ session: main.sessionId, writtenBy: "main-agent", messages: [{ role: "user" }] });
    expect(await findWriteProvenance(dir, "/elsewhere/none.md")).toBeNull();
  });
});
