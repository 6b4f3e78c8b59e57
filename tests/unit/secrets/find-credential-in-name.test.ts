import { describe, expect, it } from "vitest";
import { assertProposalPath } from "@/lib/review/validate-proposal-input";
import { findCredentialInName } from "@/lib/secrets/find-credential-in-name";
import { createChars, createRandom } from "./build-secret-corpus";

// Tokens are made at test time (see build-secret-corpus.ts): live-looking values are never committed.
const chars = createChars(createRandom(20260411));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const GITHUB = `ghp_${chars(ALNUM, 36)}`;
const AWS = `AKIA${chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`;
const STRIPE = `sk_live_${chars(ALNUM, 24)}`;
const GITLAB = `glpat-${chars(ALNUM, 20)}`;

describe("findCredentialInName", () => {
  it.each([
    [`reference_${GITHUB}.md`, "github-classic-token"],
    [`project_${AWS}.md`, "aws-access-key-id"],
    [`project_${AWS}_prod.md`, "aws-access-key-id"],
    [`feedback-${STRIPE}-notes.md`, "stripe-live-key"],
    [`payments/reference.${GITLAB}.md`, "gitlab-token"],
    [`${GITHUB}/project_x.md`, "github-classic-token"],
  ])("finds the token right after a separator in %s", (name, kind) => {
    expect(findCredentialInName(name)).toBe(`holds what looks like a credential (${kind})`);
  });

  it("still finds what the text scanner finds", () => {
    expect(findCredentialInName(`a/${GITHUB}.md`)).toBe("holds what looks like a credential (github-classic-token)");
  });

  it("passes plain names and placeholder or published example tokens, as the text scanner does", () => {
    for (const name of [
      "feedback_testing.md",
      "payments/reference_grafana.md",
      "project_sk-learn-upgrade.md",
      "reference_key-rotation-runbook.md",
      "project_AKIAIOSFODNN7EXAMPLE.md",
      "reference_ghp_16C7e42F292c6912E7710c838347Ae178B4a.md",
      `reference_ghp_${"x".repeat(36)}.md`,
      "reference_sk_live_1234567890abcdefghij.md",
    ]) {
      expect(findCredentialInName(name), name).toBeNull();
    }
  });
});

describe("assertProposalPath", () => {
  it("refuses a name holding a credential without echoing it", () => {
    let message = "";
    try {
      assertProposalPath(`reference_${GITHUB}.md`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^path: holds what looks like a credential \(github-classic-token\)/);
    expect(message).not.toContain(GITHUB.slice(4));
  });
});
