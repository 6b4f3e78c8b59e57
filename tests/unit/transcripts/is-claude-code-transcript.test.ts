import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isClaudeCodeTranscript } from "@/lib/transcripts/is-claude-code-transcript";
import { useTempDirs } from "../../helpers/temp-dir";
import { TranscriptBuilder } from "../../helpers/transcript-lines";

const tempDir = useTempDirs();

async function fileWith(text: string): Promise<string> {
  const file = path.join(await tempDir(), "session.jsonl");
  await writeFile(file, text);
  return file;
}

describe("isClaudeCodeTranscript", () => {
  it("takes a session, an empty file and a session with a torn last line", async () => {
    const session = new TranscriptBuilder();
    session.user("Always run the tests before pushing.");
    expect(await isClaudeCodeTranscript(await fileWith(session.text()))).toBe(true);
    expect(await isClaudeCodeTranscript(await fileWith(session.text(true)))).toBe(true);
    expect(await isClaudeCodeTranscript(await fileWith("\n\n"))).toBe(true);
    expect(await isClaudeCodeTranscript(await fileWith('{"type":"summary","summary":"Deploys","leafUuid":"x"}\n'))).toBe(true);
  });

  it("refuses Markdown, a JSON document and JSONL without session records", async () => {
    expect(await isClaudeCodeTranscript(await fileWith("# Title\n\nSome prose.\n"))).toBe(false);
    expect(await isClaudeCodeTranscript(await fileWith('{\n  "type": "module"\n}\n'))).toBe(false);
    expect(await isClaudeCodeTranscript(await fileWith('{"level":"info"}\n["type"]\n'))).toBe(false);
  });
});
