/**
 * Demo data: the private memory directory of the demo member, Omar Haddad.
 *
 * Same conventions as demo-team-memories.ts: dates inside bodies are absolute
 * and assume a demo "today" of about 2026-11-30. Private stores are where
 * `user` memories and personal (non-convention) feedback live (spec T2).
 */

import type { DemoMemory } from "./demo-team-memories";

/** Joins body lines and terminates the body with a newline. */
function lines(...parts: string[]): string {
  return parts.join("\n") + "\n";
}

/** The demo member's (Omar's) private memory directory: topic files at the top level. */
export const DEMO_PRIVATE_MEMORIES: Omit<DemoMemory, "author">[] = [
  // -------------------------------------------------------------------- user
  {
    fileName: "user_role.md",
    ageDays: 120,
    name: "Omar's role and background",
    description:
      "Omar is a backend engineer on acme-checkout: 6 years of Go, about a year of TypeScript/Node, new to React",
    type: "user",
    body: lines(
      "Omar Haddad is a backend engineer on the acme-checkout team (lead: Lena Park).",
      "Strong in Go, PostgreSQL and Kafka; has written TypeScript/Node for about a year; new to React and frontend tooling.",
      "Explain frontend code by analogy to backend concepts he knows (state as a cache, effects as side-effecting handlers) and skip basics of SQL and queues.",
    ),
  },
  {
    fileName: "user_goals.md",
    ageDays: 45,
    name: "Omar's growth goal: own the PayFlow integration",
    description:
      "Omar wants to become the team's owner of the PayFlow integration by mid-2027 and is learning the disputes and chargeback flows",
    type: "user",
    body: lines(
      "Omar wants to be the team's go-to owner for the PayFlow integration by mid-2027, agreed with Lena as a growth goal.",
      "He knows capture and refunds well but is still learning disputes, chargebacks and 3-D Secure edge cases.",
      "When payment work touches those areas, explain the vendor-side flow, not just the code change.",
    ),
  },

  // ---------------------------------------------------------------- feedback
  {
    fileName: "feedback_no_trailing_summary.md",
    ageDays: 60,
    name: "No summary at the end of responses",
    description:
      "Omar does not want a recap or summary at the end of responses; he reads the diff himself",
    type: "feedback",
    body: lines(
      "Do not end responses with a summary of what was just done.",
      "**Why:** Omar reads the diff himself and finds the recap repetitive; he said so more than once.",
      "**How to apply:** every response; end with the last useful fact or an open question, not a recap.",
    ),
  },
  {
    fileName: "feedback_small_diffs.md",
    ageDays: 30,
    name: "Prefers small, PR-sized diffs",
    description:
      "Omar wants changes split into small, reviewable PR-sized diffs instead of one large change touching many files",
    type: "feedback",
    body: lines(
      "Keep each change small enough to be one reviewable PR; split larger work into a sequence of steps and stop after each for review.",
      "**Why:** Omar reviews every line before pushing, and checkout reviewers push back on large PRs.",
      "**How to apply:** any change touching more than a handful of files; unrelated refactors go in a separate step, never mixed into a fix.",
    ),
  },
  {
    fileName: "feedback_confirmed_plan_first.md",
    ageDays: 2,
    name: "Plan first for multi-step refactors",
    description:
      "For multi-step refactors, proposing a numbered plan and waiting for Omar's go-ahead worked well; keep doing it",
    type: "feedback",
    body: lines(
      "For refactors spanning several steps, first propose a short numbered plan and wait for Omar's go-ahead before editing. He confirmed this worked well on the webhook v2 handler split.",
      "**Why:** he often reorders or drops steps based on what else is in flight on the team, which is cheaper to do before any code is written.",
      "**How to apply:** multi-step refactors and migrations; small fixes can go straight to the edit.",
    ),
  },

  // ----------------------------------------------------------------- project
  {
    fileName: "project_disputes_v2_handler.md",
    ageDays: 0,
    name: "Dispute webhooks on v2 by 2026-12-11",
    description:
      "Omar's own target: dispute webhook events handled on PayFlow v2 by 2026-12-11, leaving a soak period before the 2026-12-15 cutoff",
    type: "project",
    body: lines(
      "Omar's target is to have PayFlow dispute events handled by the v2 webhook handler in production by 2026-12-11.",
      "**Why:** PayFlow drops v1 webhooks on 2026-12-15 and he wants a few days of production traffic on v2 before that; disputes are the last event family left.",
      "**How to apply:** prioritise dispute handling over other tasks until 2026-12-11; if it slips past 2026-12-13, tell Lena in #checkout-dev.",
    ),
  },
  {
    fileName: "project_oncall_week.md",
    ageDays: 9,
    name: "Omar on call 2026-12-07 to 2026-12-14",
    description:
      "Omar is primary on the Checkout Primary PagerDuty rotation from 2026-12-07 to 2026-12-14, overlapping his dispute-handler deadline",
    type: "project",
    body: lines(
      "Omar is primary on-call for checkout from 2026-12-07 10:00 UTC to 2026-12-14 10:00 UTC.",
      "**Why:** the rotation was fixed on 2026-11-21; the week overlaps his dispute-handler work, so feature time will be short.",
      "**How to apply:** when planning work for that week, assume interruptions and favour small tasks that can be dropped at any moment.",
    ),
  },

  // --------------------------------------------------------------- reference
  {
    fileName: "reference_consumer_lag_dashboard.md",
    ageDays: 15,
    name: "Omar's consumer-lag scratch dashboard",
    description:
      "Omar's personal Grafana dashboard \"omar / consumer lag scratch\" tracks lag of the refund and webhook consumers per partition",
    type: "reference",
    body: lines(
      "Grafana dashboard \"omar / consumer lag scratch\" (in Omar's personal folder) shows per-partition lag of the refund and webhook consumers.",
      "It is a scratch board that nobody else maintains; the official numbers are on the team's Grafana dashboards.",
      "Useful while testing the dispute events on the v2 webhook handler, to see whether the new consumer keeps up.",
    ),
  },
];
