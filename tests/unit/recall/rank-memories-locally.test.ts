import { describe, expect, it } from "vitest";
import type { RankableMemory } from "@/lib/recall/build-local-index";
import { rankMemoriesLocally } from "@/lib/recall/rank-memories-locally";
import {
  FIXTURE_NOW,
  HELD_OUT_QUERIES,
  LABELLED_QUERIES,
  LATER_HELD_OUT_QUERIES,
  LEDGERLINE_MEMORIES,
  UNRELATED_QUERIES,
  type LabelledQuery,
} from "../../fixtures/recall/ledgerline-memories";

const DAY = 86_400_000;
const memories: RankableMemory[] = LEDGERLINE_MEMORIES.map((memory) => ({
  path: memory.file,
  name: memory.name,
  description: memory.description,
  type: memory.type,
  mtime: new Date(FIXTURE_NOW.getTime() - memory.ageDays * DAY),
}));

type Scores = { precision: number; recall: number; returned: number };

/**
 * Macro averages over the queries. precision@5 = relevant among what was returned (at most 5;
 * 0 when nothing was returned), recall@5 = share of the expected memories that were returned.
 */
function evaluate(queries: readonly LabelledQuery[]): Scores {
  let precision = 0;
  let recall = 0;
  let returned = 0;
  for (const query of queries) {
    const files = rankMemoriesLocally(memories, query.query, query.recentTools).ranked.map((entry) => entry.memory.path);
    const hits = files.filter((file) => query.expected.includes(file)).length;
    precision += files.length > 0 ? hits / files.length : 0;
    recall += hits / query.expected.length;
    returned += files.length;
  }
  return { precision: precision / queries.length, recall: recall / queries.length, returned: returned / queries.length };
}

const format = (label: string, count: number, scores: Scores): string =>
  `${label} (${count} queries over ${memories.length} memories): precision@5 ${scores.precision.toFixed(3)}, recall@5 ${scores.recall.toFixed(3)}, ${scores.returned.toFixed(1)} returned on average`;

describe("rankMemoriesLocally on the labelled Ledgerline set", () => {
  it("has the size the issue asks for", () => {
    expect(memories.length).toBeGreaterThanOrEqual(40);
    expect(LABELLED_QUERIES.length + HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(25);
    const files = new Set(memories.map((memory) => memory.path));
    for (const query of [...LABELLED_QUERIES, ...HELD_OUT_QUERIES, ...LATER_HELD_OUT_QUERIES]) for (const file of query.expected) expect(files).toContain(file);
  });

  it("reaches the precision and recall floors at 5 (tuning set and both held-out sets)", () => {
    const tuning = evaluate(LABELLED_QUERIES);
    const heldOut = evaluate(HELD_OUT_QUERIES);
    const laterHeldOut = evaluate(LATER_HELD_OUT_QUERIES);
    const all = evaluate([...LABELLED_QUERIES, ...HELD_OUT_QUERIES, ...LATER_HELD_OUT_QUERIES]);
    console.log(`local ranker, ${format("tuning set", LABELLED_QUERIES.length, tuning)}`);
    console.log(`local ranker, ${format("held-out set", HELD_OUT_QUERIES.length, heldOut)}`);
    console.log(`local ranker, ${format("later held-out set", LATER_HELD_OUT_QUERIES.length, laterHeldOut)}`);
    console.log(`local ranker, ${format("all", LABELLED_QUERIES.length + HELD_OUT_QUERIES.length + LATER_HELD_OUT_QUERIES.length, all)}`);
    // Floors a little under what the ranker measures, so a regression fails and noise does not.
    // Issue 10 aims at precision 0.6 with recall 0.85; before it the ranker measured 0.53/0.83.
    expect(tuning.precision).toBeGreaterThanOrEqual(0.58);
    expect(tuning.recall).toBeGreaterThanOrEqual(0.84);
    expect(heldOut.precision).toBeGreaterThanOrEqual(0.58);
    expect(heldOut.recall).toBeGreaterThanOrEqual(0.9);
    expect(laterHeldOut.precision).toBeGreaterThanOrEqual(0.56);
    expect(laterHeldOut.recall).toBeGreaterThanOrEqual(0.85);
  });

  it("does not let a common word carry a match: 'roll back a bad deploy' finds neither a memory through 'back' nor the user's role", () => {
    const backendProfile: RankableMemory = {
      path: "user_role_backend.md",
      name: "Backend engineer",
      description: "User is a backend engineer who falls back on plain SQL when an ORM gets in the way",
      type: "user",
      mtime: FIXTURE_NOW,
    };
    const rollbackPlan: RankableMemory = {
      path: "team/feedback_pr_rollback_plan.md",
      name: "PRs state their rollback plan",
      description: "Every pull request description has a Rollback plan section",
      type: "feedback",
      mtime: FIXTURE_NOW,
    };
    const ranked = rankMemoriesLocally([...memories, backendProfile, rollbackPlan], "how do we roll back a bad deploy").ranked;
    const files = ranked.map((entry) => entry.memory.path);
    expect(files).not.toContain("user_role.md");
    expect(files).not.toContain("user_role_backend.md");
    expect(files).not.toContain("team/reference_kubectl_context_gotcha.md"); // "falls back to the prod-us context"
    for (const entry of ranked) expect(entry.matchedTerms).not.toEqual(["back"]);
    expect(files).toContain("team/reference_argocd_deploys.md");
    expect(files).toContain("team/feedback_pr_rollback_plan.md"); // "roll" still finds "rollback"
  });

  it("does not let an inflected stop word or one generic word of a specific prompt carry a match", () => {
    // "checks" once matched "the user checks licence and bundle size first".
    const checks = rankMemoriesLocally(memories, "write an integration test for the invoice repository that checks the unique constraint").ranked;
    expect(checks.map((entry) => entry.memory.path)).not.toContain("feedback_ask_before_dependencies.md");
    // "long" ("long transactions", "long reports") once carried two database memories here.
    const layout = rankMemoriesLocally(memories, "the invoice PDF layout breaks for long line items").ranked.map((entry) => entry.memory.path);
    expect(layout).not.toContain("team/reference_psql_statement_timeout.md");
    expect(layout).not.toContain("team/project_postgres_16_upgrade.md");
    expect(layout).toContain("team/project_pdf_renderer_switch.md");
  });

  it("meets a word in another inflection: 'retries' in a prompt finds 'retried' in a description", () => {
    const outbox: RankableMemory = { path: "reference_outbox.md", name: "Outbox", description: "Outbound events are retried hourly by the outbox relay", type: "reference", mtime: FIXTURE_NOW };
    const [first] = rankMemoriesLocally([...memories, outbox], "why do the outbox retries pile up").ranked;
    expect(first?.memory.path).toBe("reference_outbox.md");
    expect(first?.matchedTerms).toEqual(expect.arrayContaining(["outbox", "retry"]));
  });

  it.each(UNRELATED_QUERIES)("returns nothing for an unrelated prompt: %s", (query) => {
    expect(rankMemoriesLocally(memories, query).ranked).toEqual([]);
  });

  it("gives the matched query words as the reason and never more than five", () => {
    // Six topics, one memory or more each: a prompt naming many things still fills the five slots.
    const { ranked, dropped } = rankMemoriesLocally(memories, "Paygate webhook idempotency, BullMQ retries, PDF renderer, kubectl context, Sentry release, psql statement timeout");
    expect(ranked).toHaveLength(5);
    expect(dropped.filter((entry) => entry.reason === "over-five").length).toBeGreaterThan(0);
    for (const entry of ranked) expect(entry.matchedTerms.length).toBeGreaterThan(0);
    const flags = rankMemoriesLocally(memories, "ship the discount behind a feature flag").ranked[0];
    expect(flags?.memory.path).toBe("team/feedback_billing_feature_flags.md");
    expect(flags?.matchedTerms).toEqual(expect.arrayContaining(["discount", "featur", "flag"]));
  });

  // Usage documentation, as R2 means it: how to call the tool, not which of the team's things it touches.
  const kubectlCheatSheet: RankableMemory = {
    path: "team/reference_kubectl_cheat_sheet.md",
    name: "kubectl cheat sheet",
    description: "kubectl commands for restarting a deployment in staging: rollout restart, get pods, logs -f",
    type: "reference",
    mtime: FIXTURE_NOW,
  };
  const linearUsage: RankableMemory = {
    path: "team/reference_linear_mcp_usage.md",
    name: "Linear MCP usage",
    description: "How to use the Linear MCP server to file a bug: create_issue with title, team and labels",
    type: "reference",
    mtime: FIXTURE_NOW,
  };

  it("R2: a usage reference for a tool in use is dropped, its gotcha is kept and surfaces through the tool", () => {
    const query = "restart the workers deployment in staging";
    const without = rankMemoriesLocally([...memories, kubectlCheatSheet], query).ranked.map((entry) => entry.memory.path);
    expect(without).toContain(kubectlCheatSheet.path);

    const withTool = rankMemoriesLocally([...memories, kubectlCheatSheet], query, ["kubectl"]);
    const files = withTool.ranked.map((entry) => entry.memory.path);
    expect(files).not.toContain(kubectlCheatSheet.path);
    expect(withTool.dropped).toContainEqual({ file: kubectlCheatSheet.path, reason: "tool-in-use" });
    expect(files).toContain("team/reference_kubectl_context_gotcha.md");
    expect(withTool.ranked.find((entry) => entry.memory.path === "team/reference_kubectl_context_gotcha.md")?.matchedTools).toEqual(["kubectl"]);
    // The team's contexts and namespaces are facts about this project, not usage notes: kept (bug-04).
    expect(files).toContain("team/reference_kubectl_contexts.md");
  });

  it("R2: an MCP tool is known by its server name", () => {
    const result = rankMemoriesLocally([...memories, linearUsage], "file a bug for the rounding error in invoice totals", ["mcp__linear__create_issue"]);
    const files = result.ranked.map((entry) => entry.memory.path);
    expect(result.dropped).toContainEqual({ file: linearUsage.path, reason: "tool-in-use" });
    expect(files).toContain("team/reference_linear_mcp_gotcha.md");
    expect(result.dropped).not.toContainEqual({ file: "team/reference_linear_projects.md", reason: "tool-in-use" }); // which Linear project: a fact
  });

  it("recency breaks a tie: of two equally good matches the newer comes first", () => {
    const twin = (path: string, days: number): RankableMemory => ({
      path,
      name: "Staging database",
      description: "The staging database is refreshed from production every Sunday night",
      type: "reference",
      mtime: new Date(FIXTURE_NOW.getTime() - days * DAY),
    });
    const older = twin("reference_a_older.md", 30);
    const newer = twin("reference_b_newer.md", 2);
    const ranked = rankMemoriesLocally([...memories, older, newer], "when is the staging database refreshed").ranked;
    const order = ranked.map((entry) => entry.memory.path).filter((path) => path === older.path || path === newer.path);
    expect(order).toEqual(["reference_b_newer.md", "reference_a_older.md"]);
  });

  it("sees an edited memory at once: the cached index is keyed by every indexed field and the mtime", () => {
    const query = "Zanzibar gateway liaison";
    expect(rankMemoriesLocally(memories, query).ranked).toEqual([]);
    const edited = memories.map((memory, index) => (index === 3 ? { ...memory, description: "Omar is the liaison for the Zanzibar gateway" } : memory));
    expect(rankMemoriesLocally(edited, query).ranked.map((entry) => entry.memory.path)).toEqual([memories[3]?.path]);
    expect(rankMemoriesLocally(memories, query).ranked).toEqual([]);
  });

  it("an empty directory or a query of stop words only returns nothing", () => {
    expect(rankMemoriesLocally([], "how do we deploy").ranked).toEqual([]);
    expect(rankMemoriesLocally(memories, "what should we do about it").ranked).toEqual([]);
  });
});
