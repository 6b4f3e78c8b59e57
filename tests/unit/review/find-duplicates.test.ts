import { describe, expect, it } from "vitest";
import { DuplicateFinder, findDuplicates, SIMILARITY_THRESHOLD } from "@/lib/review/find-duplicates";
import { memoryText } from "./memory-fixtures";

const team = [
  {
    path: "feedback_real_db_in_tests.md",
    text: memoryText({
      name: "Integration tests hit a real database",
      description: "Checkout integration tests must run against a real PostgreSQL instance, never a mocked repository or in-memory fake",
    }),
  },
  {
    path: "reference_grafana.md",
    text: memoryText({ name: "Checkout latency dashboard", description: "Grafana board 'checkout-p99' tracks payment latency per region", type: "reference", body: "Open it from the on-call runbook.\n" }),
  },
  {
    path: "project_freeze.md",
    text: memoryText({ name: "Release freeze", description: "No merges to main during the Black Friday freeze, 2026-11-20 to 2026-12-01", type: "project", body: "Hotfixes go through Lena.\n" }),
  },
];

describe("near-duplicates among the project's team memories", () => {
  it("finds a memory with the same name, whatever its wording", () => {
    const proposal = memoryText({ name: "integration tests hit a REAL database", description: "Something else entirely about queues", body: "Queues.\n" });
    const found = findDuplicates(proposal, team);
    expect(found[0]).toMatchObject({ path: "feedback_real_db_in_tests.md", name: "Integration tests hit a real database", kind: "same-name" });
    expect(found[0]!.similarity).toBeGreaterThanOrEqual(0);
    expect(found[0]!.similarity).toBeLessThanOrEqual(1);
  });

  it("finds a reworded memory about the same thing, with a score above the threshold", () => {
    const proposal = memoryText({
      name: "No mocked database in integration tests",
      description: "Integration tests for checkout run against a real PostgreSQL database instead of a mocked repository",
      body: "Use the disposable PostgreSQL the harness starts for integration tests.\n",
    });
    const found = findDuplicates(proposal, team);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ path: "feedback_real_db_in_tests.md", kind: "similar" });
    expect(found[0]!.similarity).toBeGreaterThanOrEqual(SIMILARITY_THRESHOLD);
  });

  it("lists nothing for an unrelated memory", () => {
    const proposal = memoryText({ name: "Pager rotation", description: "The on-call pager rotates every Monday at 09:00 Berlin time", type: "reference", body: "See PagerDuty schedule 'checkout'.\n" });
    expect(findDuplicates(proposal, team)).toEqual([]);
  });

  it("two memories about different things are not duplicates because both bodies say only 'See the runbook.'", () => {
    const pointer = (name: string, description: string) => memoryText({ name, description, type: "reference", body: "See the runbook.\n" });
    const found = findDuplicates(pointer("Kafka retention", "Kafka topic retention is seven days on the events cluster"), [
      { path: "reference_deploys.md", text: pointer("Deploy pipeline", "Deploys go through the blue green pipeline with manual approval in staging") },
    ]);
    expect(found).toEqual([]);
  });

  it("the same long body under another title is still a duplicate", () => {
    const body = "Retry the PayFlow capture call three times with exponential backoff starting at 200 ms, then park the order in the manual review queue and page the on-call engineer.\n";
    const found = findDuplicates(memoryText({ name: "Capture retries", description: "How checkout retries a failed capture", body }), [
      { path: "project_payflow.md", text: memoryText({ name: "PayFlow outages", description: "What to do when the payment provider is down", body }) },
    ]);
    expect(found).toMatchObject([{ path: "project_payflow.md", kind: "similar", similarity: 1 }]);
  });

  it("scores identical text 1 and is empty without team memories", () => {
    expect(findDuplicates(team[2]!.text, team)).toEqual([{ path: "project_freeze.md", name: "Release freeze", similarity: 1, kind: "same-name" }]);
    expect(findDuplicates(team[2]!.text, [])).toEqual([]);
  });

  it("a kept index updated by changed documents answers as one built afresh", () => {
    const kept = new DuplicateFinder();
    for (const memory of team) kept.put(memory.path, memory.text);
    const edited = memoryText({ name: "Release freeze", description: "No merges to main during the winter freeze, 2026-12-20 to 2027-01-05", type: "project", body: "Ask Lena.\n" });
    kept.put("project_freeze.md", edited); // an edit replaces the old document
    kept.remove("reference_grafana.md"); // a retirement leaves
    const now = team.filter((memory) => memory.path !== "reference_grafana.md").map((memory) => (memory.path === "project_freeze.md" ? { ...memory, text: edited } : memory));
    for (const probe of [...team.map((memory) => memory.text), edited]) expect(kept.find(probe)).toEqual(findDuplicates(probe, now));
    expect(kept.find(team[1]!.text).some((candidate) => candidate.path === "reference_grafana.md")).toBe(false);
    expect(kept.find(edited, "project_freeze.md").some((candidate) => candidate.path === "project_freeze.md")).toBe(false);
    expect(kept.size).toBe(now.length);
  });

  it("names a memory whose path differs in letter case only, and forgets it once removed", () => {
    const kept = new DuplicateFinder();
    kept.put("payments/project_Retry.md", team[0]!.text);
    expect(kept.findCaseTwin("PAYMENTS/project_retry.md")).toBe("payments/project_Retry.md");
    expect(kept.findCaseTwin("payments/project_Retry.md")).toBeNull();
    expect(kept.findCaseTwin("payments/project_retries.md")).toBeNull();
    kept.remove("payments/project_Retry.md");
    expect(kept.findCaseTwin("payments/project_retry.md")).toBeNull();
  });
});
