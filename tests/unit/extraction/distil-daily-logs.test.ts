import { describe, expect, it } from "vitest";
import { distilDailyLogs, type DailyLog } from "@/lib/extraction/distil-daily-logs";

const log = (date: string, text: string): DailyLog => ({ file: `logs/${date.slice(0, 4)}/${date.slice(5, 7)}/${date}.md`, date, text });

describe("distilDailyLogs (T4 without a model)", () => {
  it("counts prose under a ## heading as entries, one candidate per heading, paragraphs joined", () => {
    const candidates = distilDailyLogs([
      log("2026-12-02", "# 2026-12-02\n\n## Kafka retention\nWe learned retention is 7 days\non the events cluster.\n\nConsumers lag on Mondays.\n\n## Flaky checkout test\nThe checkout e2e test flakes on CI when run in parallel.\n"),
      log("2026-12-03", "## Kafka retention\n- compaction is off\n  for the audit topic\n"),
    ]);
    expect(candidates.map((candidate) => candidate.name)).toEqual(["Kafka retention", "Flaky checkout test"]);
    expect(candidates[0]!.body).toContain(
      "- We learned retention is 7 days on the events cluster. (2026-12-02)\n- Consumers lag on Mondays. (2026-12-02)\n- compaction is off for the audit topic (2026-12-03)\n",
    );
    expect(candidates[1]!.evidence).toEqual([{ uuid: "logs/2026/12/2026-12-02.md", role: "daily-log", excerpt: "The checkout e2e test flakes on CI when run in parallel." }]);
  });

  it("leaves out frontmatter, titles, fenced code and rules; a log of headings alone has no entries", () => {
    const candidates = distilDailyLogs([
      log("2026-12-02", "---\ntype: log\n---\n# Tuesday\n## Deploys\n```sh\nnpm run deploy\n```\n---\n1. deploys need a second reviewer\n2. rollbacks go through #release\n"),
      log("2026-12-03", "## Empty topic\n\n### Another\n"),
    ]);
    expect(candidates.map((candidate) => [candidate.name, candidate.body.split("\n\n")[0]])).toEqual([
      ["Deploys", "- deploys need a second reviewer (2026-12-02)\n- rollbacks go through #release (2026-12-02)"],
    ]);
  });
});
