import { describe, expect, it } from "vitest";
import { fitToLimits, maskSecretsIn, MAX_CONTEXT_CHARS, readSelected, SESSION_RECALL_BYTES } from "@/lib/hooks/run-prompt-recall-hook";

const memory = (file: string, chars: number) => ({ file, injection: "x".repeat(chars) });

describe("what the prompt hook hands over", () => {
  it("keeps the server's order while the output stays under Claude Code's preview limit, skipping one that would not fit", () => {
    const given = fitToLimits([memory("a.md", 4_000), memory("b.md", 4_000), memory("big.md", 4_000), memory("small.md", 1_000)], 0);
    expect(given.map((item) => item.file)).toEqual(["a.md", "b.md", "small.md"]);
    expect(given.reduce((sum, item) => sum + item.injection.length + 1, 0)).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
  });

  it("stops at the session's cap (C8)", () => {
    expect(fitToLimits([memory("a.md", 2_000)], SESSION_RECALL_BYTES - 1_000)).toEqual([]);
    expect(fitToLimits([memory("a.md", 900)], SESSION_RECALL_BYTES - 1_000).map((item) => item.file)).toEqual(["a.md"]);
  });

  it("reads only well-formed memories from the server's answer", () => {
    expect(readSelected(null)).toEqual([]);
    expect(readSelected({ selected: "x" })).toEqual([]);
    expect(readSelected({ selected: [{ file: "a.md", injection: "<system-reminder>…" }, { file: 3, injection: "y" }, null, { file: "b.md" }] })).toEqual([{ file: "a.md", injection: "<system-reminder>…" }]);
  });

  it("takes from a server's answer at most five memories, each once, named by valid memory keys (R5, C12)", () => {
    const answer = { selected: ["../secret.md", "/etc/passwd", "a/../../b.md", "a.md", "a.md", "b.md", "c.md", "d.md", "e.md", "f.md"].map((file) => ({ file, injection: file })) };
    expect(readSelected(answer).map((item) => item.file)).toEqual(["a.md", "b.md", "c.md", "d.md", "e.md"]);
  });

  it("masks a credential the server left in an injection", async () => {
    const secret = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
    const [masked] = await maskSecretsIn([{ file: "reference_ci.md", injection: `CI reads ${secret} from the vault.` }]);
    expect(masked!.injection).not.toContain(secret);
    expect(masked!.injection).toMatch(/^CI reads \[REDACTED:[^\]]+\] from the vault\.$/);
  });
});
