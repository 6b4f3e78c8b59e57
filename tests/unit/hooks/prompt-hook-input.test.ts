import { describe, expect, it } from "vitest";
import { parsePromptHookInput, skipReasonForPrompt } from "@/lib/hooks/prompt-hook-input";

describe("the prompt hook's input", () => {
  it("reads Claude Code's UserPromptSubmit fields", () => {
    const text = JSON.stringify({ session_id: "abc", transcript_path: "/t.jsonl", cwd: "/repo", permission_mode: "default", hook_event_name: "UserPromptSubmit", prompt: "how do we test" });
    expect(parsePromptHookInput(text)).toEqual({ sessionId: "abc", prompt: "how do we test", cwd: "/repo", transcriptPath: "/t.jsonl" });
  });

  it("is null for anything else", () => {
    for (const text of ["", "not json", "[]", "null", JSON.stringify({ prompt: "x y", cwd: "/r" }), JSON.stringify({ session_id: "a", prompt: 3, cwd: "/r" }), JSON.stringify({ session_id: "a", prompt: "x y" })]) {
      expect(parsePromptHookInput(text)).toBeNull();
    }
  });

  it("skips slash commands and one-word prompts (C8), not real questions", () => {
    expect(skipReasonForPrompt("/clear")).toBe("slash-command");
    expect(skipReasonForPrompt("  /review 12 please")).toBe("slash-command");
    expect(skipReasonForPrompt("yes")).toBe("one-word-prompt");
    expect(skipReasonForPrompt("  continue \n")).toBe("one-word-prompt");
    expect(skipReasonForPrompt("")).toBe("one-word-prompt");
    expect(skipReasonForPrompt("fix the flaky checkout test")).toBeNull();
    expect(skipReasonForPrompt("what does src/a/b.ts do")).toBeNull();
  });
});
