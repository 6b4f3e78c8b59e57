import { createHash } from "node:crypto";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { serializeMemory } from "../memdir/frontmatter";
import { rejectProposal } from "../review/reject-proposal";
import { submitProposal } from "../review/submit-proposal";
import { daysBefore } from "./seed-demo-store";
import { DEMO_PROJECT } from "./demo-team";

const HOUR_MS = 60 * 60 * 1000;

// What agents were given over the last two weeks: [days ago, member, selected files].
const DEMO_RECALLS: [number, "omar" | "priya", string[]][] = [
  [13, "omar", ["feedback_real_db_in_tests.md", "reference_payflow_sandbox_guide.md"]],
  [11, "priya", ["feedback_migrations_expand_contract.md"]],
  [9, "omar", ["feedback_real_db_in_tests.md"]],
  [8, "priya", ["project_kafka_cluster_move.md", "reference_kafka_topic_registry.md"]],
  [6, "omar", ["feedback_payflow_sandbox_contract_tests.md", "feedback_real_db_in_tests.md"]],
  [4, "priya", ["reference_grafana_checkout.md"]],
  [3, "omar", ["feedback_real_db_in_tests.md", "feedback_no_logging_payment_bodies.md"]],
  [2, "priya", ["project_q1_2027_latency_goal.md", "reference_grafana_checkout.md"]],
  [1, "omar", ["feedback_pr_rollback_plan.md"]],
  [1, "priya", ["feedback_real_db_in_tests.md"]],
];

// Extraction candidates a lead turned down (personal or not a team fact), so the Overview's
// "approved vs rejected by source" has decisions to show; the open queue stays as seeded.
const DEMO_REJECTIONS = [
  { path: "feedback_use_tabs.md", name: "Use tabs in editor config", description: "Priya's editor indents with tabs", reason: "A personal editor preference, not a team rule.", daysAgo: 5 },
  { path: "project_lunch_order.md", name: "Friday lunch order", description: "Lunch is ordered at 11:30 on Fridays", reason: "Not about the code or how the team works on it.", daysAgo: 9 },
];

/** Recall events and a couple of decided proposals over past days, so the demo's Overview has data. */
export async function seedDemoActivity(config: Config, db: Db, now: Date): Promise<void> {
  const users = new Map((await db.user.findMany({ where: { email: { in: ["omar@acme.example", "priya@acme.example", "lena@acme.example"] } }, select: { id: true, email: true } })).map((user) => [user.email.split("@")[0]!, user.id]));
  const lead = users.get("lena");
  if (!lead) return;
  await db.recallEvent.createMany({
    data: DEMO_RECALLS.flatMap(([daysAgo, member, selected], index) => {
      const userId = users.get(member);
      if (!userId) return [];
      const at = new Date(daysBefore(now, daysAgo).getTime() - (index % 3) * HOUR_MS);
      return [{ projectId: DEMO_PROJECT.id, userId, at, queryHash: createHash("sha256").update(`demo-${index}`).digest("hex"), selector: "local", selected: JSON.stringify(selected), latencyMs: 40 + index * 7 }];
    }),
  });
  const proposer = users.get("priya");
  if (!proposer) return;
  for (const rejection of DEMO_REJECTIONS) {
    const content = serializeMemory({ name: rejection.name, description: rejection.description, type: rejection.path.split("_")[0]! }, `${rejection.description}.\n`);
    const proposal = await submitProposal(config, db, { projectId: DEMO_PROJECT.id, path: rejection.path, content, source: "extraction", proposerId: proposer, provenance: { transcript: "demo", messages: "1-2" } });
    await rejectProposal(config, db, { proposalId: proposal.id, actorId: lead, reason: rejection.reason });
    // Backdated so the weekly chart spreads over past weeks, as a real queue would.
    await db.proposal.update({ where: { id: proposal.id }, data: { createdAt: daysBefore(now, rejection.daysAgo + 1) } });
  }
}
