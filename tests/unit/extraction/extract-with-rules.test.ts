import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractWithRules } from "@/lib/extraction/extract-with-rules";
import { readTranscript } from "@/lib/transcripts/read-transcript";
import type { TranscriptMessage } from "@/lib/transcripts/transcript-types";
import { TranscriptBuilder } from "../../helpers/transcript-lines";
import { useTempDirs } from "../../helpers/temp-dir";

type Turn = { user?: string; assistant?: string; tool?: string; toolError?: string; toolResult?: string; meta?: string; compactSummary?: string; sidechainUser?: string };
type Snippet = { id: string; label: "positive" | "trap"; expect?: string; turns: Turn[] };

const SET: { snippets: Snippet[] } = JSON.parse(readFileSync(path.join(__dirname, "../../fixtures/extraction/labelled-snippets.json"), "utf8"));
// The floor under which the fallback extractor is not worth shipping; the measured values are printed.
const PRECISION_FLOOR = 0.9;
const RECALL_FLOOR = 0.85;
const tempDir = useTempDirs();

function transcriptOf(snippet: Snippet): string {
  const t = new TranscriptBuilder();
  for (const turn of snippet.turns) {
    if (turn.user) t.user(turn.user);
    if (turn.meta) t.user(turn.meta, { isMeta: true });
    if (turn.compactSummary) {
      t.system("compact_boundary");
      t.user(turn.compactSummary, { isCompactSummary: true });
    }
    if (turn.sidechainUser) t.user(turn.sidechainUser, { isSidechain: true });
    if (turn.assistant !== undefined) {
      const hasTool = turn.tool !== undefined;
      const reply = t.assistant(hasTool ? [{ text: turn.assistant }, { tool: turn.tool!, id: "toolu_1", input: { command: "run" } }] : [{ text: turn.assistant }]);
      if (hasTool) t.toolResult("toolu_1", reply.toolLines.toolu_1!, turn.toolError ?? turn.toolResult ?? "", turn.toolError !== undefined);
    }
  }
  return t.text();
}

async function messagesOf(text: string): Promise<TranscriptMessage[]> {
  const file = path.join(await tempDir(), "s.jsonl");
  await writeFile(file, text);
  const messages: TranscriptMessage[] = [];
  for await (const message of readTranscript(file).messages) messages.push(message);
  return messages;
}

describe("extractWithRules on the labelled set (X8)", () => {
  it(`finds explicit instructions with precision ≥ ${PRECISION_FLOOR} and recall ≥ ${RECALL_FLOOR}`, async () => {
    expect(SET.snippets.length).toBeGreaterThanOrEqual(30);
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    const misses: string[] = [];
    for (const snippet of SET.snippets) {
      const candidates = extractWithRules(await messagesOf(transcriptOf(snippet)));
      if (snippet.label === "trap") {
        falsePositives += candidates.length;
        if (candidates.length) misses.push(`${snippet.id} (trap) → ${candidates.map((candidate) => candidate.name).join(" | ")}`);
        continue;
      }
      const hit = candidates.find((candidate) => candidate.name.toLowerCase().includes(snippet.expect!.toLowerCase()));
      if (hit) truePositives++;
      else {
        falseNegatives++;
        misses.push(`${snippet.id} (positive) → ${candidates.map((candidate) => candidate.name).join(" | ") || "nothing"}`);
      }
      falsePositives += candidates.length - (hit ? 1 : 0);
    }
    const precision = truePositives / (truePositives + falsePositives);
    const recall = truePositives / (truePositives + falseNegatives);
    console.log(`rule extractor on ${SET.snippets.length} labelled snippets: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (TP ${truePositives}, FP ${falsePositives}, FN ${falseNegatives})${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`);
    expect(precision).toBeGreaterThanOrEqual(PRECISION_FLOOR);
    expect(recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
  });

  it("gives each candidate low confidence, the user's words first as evidence, and T2 scope", async () => {
    const t = new TranscriptBuilder();
    const reply = t.assistant([{ text: "Installing." }, { tool: "Bash", id: "toolu_1", input: { command: "npm install" } }]);
    t.toolResult("toolu_1", reply.toolLines.toolu_1!, "npm ERR! lockfile", true);
    const said = t.user("No, use pnpm instead, this repo has a pnpm lockfile.");
    t.user("Don't add closing summaries to your replies.");
    const [correction, taste] = extractWithRules(await messagesOf(t.text()));
    expect(correction).toMatchObject({ type: "feedback", scope: "team", confidence: "low" });
    expect(correction!.evidence[0]).toMatchObject({ uuid: said, role: "user" });
    expect(correction!.evidence[1]!.excerpt).toContain("npm ERR! lockfile");
    expect(taste).toMatchObject({ type: "feedback", scope: "private" });
  });

  it("never copies a credential the user typed into a candidate", async () => {
    const token = ["sk", "_live_", "51HqLmN2eZvKYlo2C8xW7pQ4rT6y"].join("");
    const t = new TranscriptBuilder();
    t.user(`Remember that the checkout tests use the key ${token} for the sandbox.`);
    const candidates = extractWithRules(await messagesOf(t.text()));
    expect(candidates).toHaveLength(1);
    expect(JSON.stringify(candidates)).not.toContain(token);
  });

  it("never copies the first piece of a credential a line wrap cut early (a paste into a narrow terminal)", async () => {
    const token = ["ghp", "R5uyTeuGynkNo1XiUooIJ1QLilUtOt9d7DmV"].join("_");
    const t = new TranscriptBuilder();
    t.user(`Remember that the webhook signing key is ${token.slice(0, 18)}\n${token.slice(18)} in staging.`);
    const candidates = extractWithRules(await messagesOf(t.text()));
    expect(candidates).toHaveLength(1);
    expect(JSON.stringify(candidates)).not.toContain(token.slice(0, 18));
    expect(candidates[0]!.name).toContain("[REDACTED:github-classic-token]");
  });

  it("keeps two instructions that start with the same words as two candidates with their own file names", async () => {
    const t = new TranscriptBuilder();
    t.user("Remember that the release branch of the checkout service is frozen until 2027-01-04.");
    t.user("Remember that the release branch of the checkout service needs two approvals from payments leads.");
    t.user("Never commit directly to the release branch without a second reviewer. Never commit directly to the release branch on Fridays after noon.");
    t.user("Remember that the release branch of the checkout service is frozen until 2027-01-04.");
    const candidates = extractWithRules(await messagesOf(t.text()));
    expect(candidates.map((candidate) => candidate.description)).toEqual([
      "The release branch of the checkout service is frozen until 2027-01-04.",
      "The release branch of the checkout service needs two approvals from payments leads.",
      "Never commit directly to the release branch without a second reviewer.",
      "Never commit directly to the release branch on Fridays after noon.",
    ]);
    expect(new Set(candidates.map((candidate) => candidate.file)).size).toBe(4);
  });

  it("keeps the inline code of an instruction in the memory and its evidence; code alone never makes a rule", async () => {
    const t = new TranscriptBuilder();
    t.user("From now on, run `docker compose up -d db` before the integration tests.");
    t.user("Never use `rm -rf /tmp/cache` in our scripts.");
    t.user("`Always retry` is the name of the flag in our config.");
    const candidates = extractWithRules(await messagesOf(t.text()));
    expect(candidates.map((candidate) => candidate.body.split("\n")[0])).toEqual(["From now on, run `docker compose up -d db` before the integration tests.", "Never use `rm -rf /tmp/cache` in our scripts."]);
    expect(candidates[0]!.evidence[0]!.excerpt).toContain("`docker compose up -d db`");
    expect(candidates[1]!.name).toBe("Never use `rm -rf /tmp/cache` in our scripts.");
  });
});
