import { describe, expect, it } from "vitest";
import type { ExtractionCandidate } from "@/lib/extraction/candidate-types";
import { maskProposedCandidates } from "@/lib/extraction/mask-proposed-candidates";

// What POST /api/projects/:id/extractions answers: the model writes every field of a candidate.
describe("an extraction answer's candidates", () => {
  it("show no credential the model wrote: not in the file name, name, body or evidence", () => {
    const openAiKey = `sk-proj-${"Ab3dE5gH7jK9mN1pQ3sT5vX7z".repeat(2)}T3BlbkFJ${"q".repeat(20)}`;
    const githubToken = `ghp_${"a1B2c3D4e5".repeat(3)}x9Y8z7`;
    const candidate: ExtractionCandidate = {
      file: `reference_${githubToken}.md`,
      type: "reference",
      name: `CI key ${openAiKey}`,
      description: "The CI key",
      body: `Use ${openAiKey} in CI.\n`,
      scope: "team",
      evidence: [{ uuid: "u1", role: "user", excerpt: `the token is ${githubToken}` }],
      confidence: "medium",
    };
    const answer = maskProposedCandidates({ selector: "model" as const, cursor: "u1", sessionId: "s1", candidates: [{ ...candidate, proposal: { error: `path: ${candidate.file} holds what looks like a credential` } }] });
    const shown = JSON.stringify(answer);
    for (const secret of [openAiKey, githubToken]) expect(shown).not.toContain(secret.slice(8, 24));
    expect(answer.candidates[0]!.file).toMatch(/^reference_\[REDACTED:github-classic-token/);
    expect(answer).toMatchObject({ selector: "model", cursor: "u1", sessionId: "s1", candidates: [{ type: "reference", scope: "team", confidence: "medium", description: "The CI key" }] });
  });
});
