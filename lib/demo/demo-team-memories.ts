/**
 * Demo data: the team memory store of a fictional "acme-checkout" team.
 *
 * Dates inside bodies are absolute and were written for a demo "today" of
 * about 2026-11-30; `ageDays` places each file's mtime relative to the real
 * today, so the oldest project memories read as plausibly stale (a freeze long
 * past, migrations still "in progress" months ago).
 *
 * Team stores hold no `user` memories: `user` is always private (spec T2).
 * Nothing here is, or looks like, a credential (spec T3).
 */

export type DemoMemory = {
  /** Claude-Code-style file name, e.g. "feedback_testing.md" (lowercase, [a-z0-9_-], .md) */
  fileName: string;
  /** Days before "today" that the memory was last written (0 = today). */
  ageDays: number;
  /** Who wrote it: one of the demo team's member keys. */
  author: "lena" | "omar" | "priya";
  name: string;
  description: string;
  type: "user" | "feedback" | "project" | "reference";
  /** Markdown body without frontmatter, ending with a newline. */
  body: string;
};

/** Joins body lines and terminates the body with a newline. */
function lines(...parts: string[]): string {
  return parts.join("\n") + "\n";
}

export const DEMO_TEAM_MEMORIES: DemoMemory[] = [
  // ---------------------------------------------------------------- feedback
  {
    fileName: "feedback_real_db_in_tests.md",
    ageDays: 210,
    author: "lena",
    name: "Integration tests hit a real database",
    description:
      "Checkout integration tests must run against a real PostgreSQL instance, never a mocked repository or in-memory fake",
    type: "feedback",
    body: lines(
      "Integration tests in acme-checkout run against a real PostgreSQL database (the disposable one the test harness starts), never a mocked repository layer or an in-memory substitute.",
      "**Why:** in April 2026 the mocked suite was green while the real unique index on (cart_id, attempt) rejected payment retries in production; only a real database enforces constraints, locks and isolation levels.",
      "**How to apply:** any test that exercises SQL, transactions or migrations; pure unit tests of pricing logic may still use plain objects.",
    ),
  },
  {
    fileName: "feedback_payflow_sandbox_contract_tests.md",
    ageDays: 130,
    author: "omar",
    name: "Contract tests use the real PayFlow sandbox",
    description:
      "Never mock or record-replay the PayFlow sandbox in payment contract tests; they must call the live sandbox",
    type: "feedback",
    body: lines(
      "Contract tests for the PayFlow integration call the real PayFlow sandbox. Do not replace it with mocks, fixtures or recorded responses.",
      "**Why:** PayFlow changed the shape of 3-D Secure challenge responses in the sandbox two weeks before production; our recorded fixtures hid it and the change reached customers on 2026-07-14.",
      "**How to apply:** the nightly contract suite only; unit tests of our own mapping code may stub PayFlow. If the sandbox is down, mark the run as blocked instead of falling back to mocks.",
    ),
  },
  {
    fileName: "feedback_migrations_expand_contract.md",
    ageDays: 180,
    author: "lena",
    name: "Expand/contract schema migrations",
    description:
      "Never rename or drop a column in the same release that stops using it; split schema changes across at least two deploys",
    type: "feedback",
    body: lines(
      "Changes to existing columns go expand, migrate, contract over at least two deploys: add the new column, dual-write, switch reads, and drop the old column only in a later release.",
      "**Why:** on 2026-05-27 a single-release rename of orders.total caused 14 minutes of 500s while old pods in the rolling deploy still queried the old name.",
      "**How to apply:** any migration that renames, drops or retypes a column or table; purely additive migrations can ship in one release.",
    ),
  },
  {
    fileName: "feedback_kafka_event_versioning.md",
    ageDays: 250,
    author: "priya",
    name: "Version Kafka events instead of editing them",
    description:
      "Never change the schema of an existing checkout Kafka event in place; publish a new versioned event such as order.placed.v2",
    type: "feedback",
    body: lines(
      "Do not rename, remove or retype fields of an existing checkout event. Adding optional fields is fine; anything else becomes a new versioned topic (e.g. order.placed.v2) published alongside the old one until consumers have moved.",
      "**Why:** fulfillment and analytics consume our events on their own release schedules; a field rename in February 2026 silently broke the analytics consumer for two days.",
      "**How to apply:** any change to an order.* or payment.* payload; check the consumer list in the Kafka topic registry before retiring an old version.",
    ),
  },
  {
    fileName: "feedback_flag_risky_changes.md",
    ageDays: 63,
    author: "lena",
    name: "Risky checkout changes ship behind a flag",
    description:
      "Changes to payment capture, pricing or order submission ship behind a feature flag that defaults to off and ramps 1/10/100%",
    type: "feedback",
    body: lines(
      "Anything that touches payment capture, price calculation or order submission ships behind a feature flag, default off, ramped 1% then 10% then 100%.",
      "**Why:** turning a flag off takes seconds; a rollback redeploy of checkout takes about 12 minutes, which at peak means many lost orders.",
      "**How to apply:** payment, pricing and submission paths; copy changes, logging and internal tooling need no flag. Remove the flag within 30 days of reaching 100%.",
    ),
  },
  {
    fileName: "feedback_confirmed_idempotency_keys.md",
    ageDays: 35,
    author: "omar",
    name: "Keep deterministic PayFlow idempotency keys",
    description:
      "Team confirmed deriving PayFlow idempotency keys from cart id plus attempt number; do not go back to random per-request UUIDs",
    type: "feedback",
    body: lines(
      "Deriving the PayFlow idempotency key from the cart id plus the payment attempt number was the right approach; Lena approved it in review and asked that it stay.",
      "**Why:** it is what guarantees that a retried request can never create a second charge; random per-request UUIDs caused the double charges of 2026-10-21.",
      "**How to apply:** keep it when refactoring the payment client; a new attempt number is issued only when the customer explicitly retries.",
    ),
  },
  {
    fileName: "feedback_confirmed_staging_replay.md",
    ageDays: 20,
    author: "priya",
    name: "Replay production traffic before consumer changes",
    description:
      "Replaying an hour of sanitized production Kafka traffic into staging before releasing consumer changes worked; keep doing it",
    type: "feedback",
    body: lines(
      "Before releasing a change to a Kafka consumer, replay one hour of sanitized production traffic into staging and compare the resulting rows with production. The team confirmed it is worth the 30 minutes.",
      "**Why:** the replay on 2026-11-06 caught an out-of-order bug in the refund consumer that unit tests and review had both missed.",
      "**How to apply:** every consumer change in checkout; producer-only changes do not need it.",
    ),
  },
  {
    fileName: "feedback_no_logging_payment_bodies.md",
    ageDays: 300,
    author: "lena",
    name: "Never log payment request bodies",
    description:
      "Do not log request or response bodies of the /payments endpoints or of PayFlow calls, not even at debug level",
    type: "feedback",
    body: lines(
      "Never log request or response bodies from /payments endpoints or from calls to PayFlow, at any log level. Log the payment attempt id and status instead.",
      "**Why:** in January 2026 a debug log sent card expiry dates and last-four digits to the log pipeline, which put it in PCI scope and required a purge and an audit.",
      "**How to apply:** all payment code, including temporary debugging in staging; if one field is genuinely needed, redact everything else before logging.",
    ),
  },
  {
    fileName: "feedback_quarantine_flaky_tests.md",
    ageDays: 48,
    author: "omar",
    name: "Quarantine flaky tests, don't add retries",
    description:
      "Flaky checkout tests go to quarantine with a Linear CHK ticket; never wrap them in automatic retries to make CI green",
    type: "feedback",
    body: lines(
      "When a test is flaky, move it to the quarantine suite and open a CHK ticket with the failure log. Do not add retry loops or longer timeouts to make CI pass.",
      "**Why:** retries hid a real race in inventory reservation for three weeks in September 2026, until it oversold a limited product drop.",
      "**How to apply:** every flaky test; quarantined tests are reviewed in Monday triage and fixed or deleted within two weeks.",
    ),
  },
  {
    fileName: "feedback_pr_rollback_plan.md",
    ageDays: 2,
    author: "priya",
    name: "PRs state their rollback plan",
    description:
      "Every checkout PR description has a \"Rollback plan\" section; the team agreed in the 2026-11-27 retro that it helps on-call",
    type: "feedback",
    body: lines(
      "Every checkout PR description has a \"Rollback plan\" section saying how to undo the change: flag off, revert, or a forward fix with the reason a revert is unsafe.",
      "**Why:** in the 2026-11-27 retro the team agreed it cut the time on-call spent working out whether a revert was safe during the last incident.",
      "**How to apply:** all PRs to acme-checkout, small ones included (\"revert is safe\" is a valid plan); migrations must also say whether the down-migration was tested.",
    ),
  },

  // ----------------------------------------------------------------- project
  {
    fileName: "project_kafka_cluster_move.md",
    ageDays: 0,
    author: "priya",
    name: "Kafka cluster move on 2026-12-08",
    description:
      "Platform moves checkout's Kafka topics to the new cluster on 2026-12-08, 06:00-08:00 UTC; no consumer deploys that day",
    type: "project",
    body: lines(
      "The platform team migrates all checkout topics to the new Kafka cluster on 2026-12-08 between 06:00 and 08:00 UTC. Consumers will rebalance and may see duplicate deliveries during the switch.",
      "**Why:** the old cluster is being decommissioned; the platform team owns the date and it will not move.",
      "**How to apply:** do not deploy consumer changes on 2026-12-08, and make sure anything merged before then handles duplicate events idempotently. Priya is checkout's contact for the move.",
    ),
  },
  {
    fileName: "project_holiday_freeze_2026.md",
    ageDays: 1,
    author: "lena",
    name: "Holiday code freeze 2026-12-18 to 2027-01-04",
    description:
      "Checkout code freeze from 2026-12-18 through 2027-01-04; only sev1/sev2 fixes deploy, each approved by Lena",
    type: "project",
    body: lines(
      "Checkout is frozen from 2026-12-18 through 2027-01-04 inclusive. Only sev1/sev2 fixes deploy during the freeze, and each needs Lena's approval in #checkout-dev.",
      "**Why:** peak holiday traffic; a hotfix deployed during last year's freeze caused a 20-minute checkout outage on 2025-12-22.",
      "**How to apply:** plan merges to land by 2026-12-17; anything non-urgent after that waits until 2027-01-05.",
    ),
  },
  {
    fileName: "project_payflow_webhooks_v2.md",
    ageDays: 4,
    author: "omar",
    name: "PayFlow webhooks v2 migration, deadline 2026-12-15",
    description:
      "PayFlow stops v1 webhook delivery on 2026-12-15; checkout is moving payment status handling to the v2 event format",
    type: "project",
    body: lines(
      "PayFlow stops delivering v1 webhooks on 2026-12-15. Omar is moving payment status handling to the v2 format; as of 2026-11-26 capture and refund events are done, dispute events are not.",
      "**Why:** vendor deprecation; after that date v1 events are dropped and affected orders would stay \"pending\" forever.",
      "**How to apply:** put new webhook logic in the v2 handler only and fix v1 bugs only for sev1/sev2. Dispute events must be on v2 before the 2026-12-15 cutoff.",
    ),
  },
  {
    fileName: "project_q1_2027_latency_goal.md",
    ageDays: 6,
    author: "lena",
    name: "Q1 2027 checkout latency goal",
    description:
      "Goal set 2026-11-24: p95 latency of checkout submit under 400 ms by 2027-03-31, down from about 650 ms",
    type: "project",
    body: lines(
      "Team goal for Q1 2027, agreed in planning on 2026-11-24: p95 latency of POST /checkout/submit under 400 ms by 2027-03-31 (about 650 ms in November 2026).",
      "**Why:** product linked the slow submit step to cart abandonment on mobile; it is the team's top goal for the quarter.",
      "**How to apply:** prefer changes that take work off the synchronous submit path (e.g. moving post-order work behind the outbox); flag in review anything that adds a synchronous call to submit.",
    ),
  },
  {
    fileName: "project_wallet_launch.md",
    ageDays: 27,
    author: "priya",
    name: "PayFlow Wallet launch target 2027-02-01",
    description:
      "One-tap PayFlow Wallet payments target launch 2027-02-01 behind flag checkout.wallet; legal sign-off was pending on 2026-11-03",
    type: "project",
    body: lines(
      "One-tap payments through PayFlow Wallet are targeted to launch on 2027-02-01, behind the checkout.wallet flag. As of 2026-11-03 legal sign-off on the updated terms is still pending.",
      "**Why:** the date is tied to a marketing campaign, but the feature cannot ship without legal sign-off, so the date may slip.",
      "**How to apply:** build behind the flag and keep it off in production; ask Priya whether sign-off has arrived before planning any ramp.",
    ),
  },
  {
    fileName: "project_incident_double_charge.md",
    ageDays: 35,
    author: "omar",
    name: "Double-charge incident of 2026-10-21",
    description:
      "Retry storm after PayFlow 502s double-charged 37 orders on 2026-10-21; circuit-breaker follow-up due 2026-12-05",
    type: "project",
    body: lines(
      "On 2026-10-21 PayFlow returned 502s for about 25 minutes; our client retried with fresh idempotency keys and 37 customers were charged twice (all refunded by 2026-10-23).",
      "Follow-ups: deterministic idempotency keys (done 2026-10-24); circuit breaker on the PayFlow client (owner Priya, due 2026-12-05). Postmortem: CHK-1482.",
      "**Why:** this incident is the reason for the strict retry rules in the payment client, and reviewers will ask about it.",
      "**How to apply:** treat any change to payment retries or timeouts as high risk and link the postmortem in the PR.",
    ),
  },
  {
    fileName: "project_legacy_coupon_api.md",
    ageDays: 70,
    author: "priya",
    name: "Legacy /v1/coupons removal not before 2027-01-31",
    description:
      "/v1/coupons is deprecated but mobile app 5.x still calls it; remove no earlier than 2027-01-31 and only below 1% usage",
    type: "project",
    body: lines(
      "The /v1/coupons endpoint is deprecated in favour of /v2/promotions, but mobile app 5.x still calls it. Removal is agreed for no earlier than 2027-01-31, and only once 5.x traffic is below 1%.",
      "**Why:** the mobile team cannot force-upgrade 5.x users before the holiday season.",
      "**How to apply:** fix /v1/coupons only for correctness or security issues; new promotion features go to /v2 only.",
    ),
  },
  {
    fileName: "project_eu_data_residency.md",
    ageDays: 90,
    author: "lena",
    name: "EU order data residency from 2027-03-01",
    description:
      "From 2027-03-01, orders and payment records of EU customers must live only in the EU PostgreSQL cluster (merchant contract)",
    type: "project",
    body: lines(
      "From 2027-03-01, orders and payment records of EU customers must be stored only in the EU PostgreSQL cluster. Decided on 2026-09-01, after a contract with a large merchant made it a requirement.",
      "**Why:** contractual and regulatory; missing the date puts that merchant contract at risk.",
      "**How to apply:** every new table holding customer or order data needs a region column and region-routed writes; raise any design that copies EU data elsewhere (analytics exports included) with Lena.",
    ),
  },
  {
    fileName: "project_outbox_decision.md",
    ageDays: 142,
    author: "lena",
    name: "Publish Kafka events through the outbox",
    description:
      "Decision of 2026-07-11: checkout events are published via a transactional outbox, never directly from request handlers",
    type: "project",
    body: lines(
      "Decision (2026-07-11): every Kafka event from checkout is written to the outbox table in the same transaction as the business change, and a relay publishes it. Request handlers never publish to Kafka directly.",
      "**Why:** on 2026-07-09 the broker was unreachable for 9 minutes; 212 orders committed but their order.placed events were lost, so fulfillment never shipped them.",
      "**How to apply:** new events go through the outbox; reviews reject direct producer calls in request handlers.",
    ),
  },
  {
    fileName: "project_orders_partitioning.md",
    ageDays: 200,
    author: "omar",
    name: "Orders table partitioning in progress",
    description:
      "Orders table moving to monthly partitions: dual-writing since 2026-05-14 while history backfills, cutover targeted 2026-06-30",
    type: "project",
    body: lines(
      "The orders table is being moved to monthly partitions. As of 2026-05-14 the app dual-writes to orders and orders_partitioned while the history backfill runs; cutover is targeted for 2026-06-30.",
      "**Why:** the unpartitioned orders table (about 400 million rows) made vacuum and the nightly reporting queries too slow.",
      "**How to apply:** until cutover, every change to order writes must update both tables; Omar owns the cutover.",
    ),
  },
  {
    fileName: "project_postgres_16_upgrade.md",
    ageDays: 230,
    author: "priya",
    name: "PostgreSQL 16 upgrade, cutover 2026-05-02",
    description:
      "Checkout database upgrade from PostgreSQL 13 to 16, cutover 2026-05-02; avoid PostgreSQL 15+ features until then",
    type: "project",
    body: lines(
      "The checkout database is being upgraded from PostgreSQL 13 to 16; cutover is planned for 2026-05-02 in a 30-minute maintenance window starting 05:00 UTC.",
      "**Why:** PostgreSQL 13 left community support in November 2025, and the platform team will not patch it further.",
      "**How to apply:** until the cutover, do not use features that need PostgreSQL 15 or later (MERGE, the newer JSON functions); migrations must run on both versions.",
    ),
  },
  {
    fileName: "project_holiday_freeze_2025.md",
    ageDays: 365,
    author: "lena",
    name: "Holiday code freeze 2025-12-15 to 2026-01-05",
    description:
      "Checkout code freeze from 2025-12-15 through 2026-01-05 for peak holiday traffic; hotfixes need Lena's approval",
    type: "project",
    body: lines(
      "Checkout is frozen from 2025-12-15 through 2026-01-05. Only hotfixes deploy, each approved by Lena.",
      "**Why:** holiday traffic peaks at roughly four times normal, and PayFlow asked its merchants to avoid integration changes over the same window.",
      "**How to apply:** land feature work by 2025-12-12; the first regular release after the freeze goes out on 2026-01-06.",
    ),
  },

  // --------------------------------------------------------------- reference
  {
    fileName: "reference_grafana_checkout.md",
    ageDays: 95,
    author: "omar",
    name: "Grafana \"Checkout / API Overview\" dashboard",
    description:
      "Grafana dashboard \"Checkout / API Overview\" shows latency and 5xx rate per checkout endpoint; first stop for slowness questions",
    type: "reference",
    body: lines(
      "Grafana dashboard \"Checkout / API Overview\" (folder: Checkout) shows p50/p95/p99 latency, request rate and 5xx rate per endpoint, split by Kubernetes pod.",
      "Use it first for \"is checkout slow?\" questions and to judge a deploy's impact: deploys appear as annotations.",
      "Database-side numbers are on the separate \"Checkout / PostgreSQL\" dashboard in the same folder.",
    ),
  },
  {
    fileName: "reference_grafana_payflow.md",
    ageDays: 41,
    author: "priya",
    name: "Grafana \"Payments / PayFlow Vendor Health\" dashboard",
    description:
      "Grafana dashboard \"Payments / PayFlow Vendor Health\" tells PayFlow outages from our own bugs via vendor latency and decline codes",
    type: "reference",
    body: lines(
      "Grafana dashboard \"Payments / PayFlow Vendor Health\" shows PayFlow call latency, HTTP status mix and decline codes over time.",
      "If PayFlow 5xx rise while our own error rate is flat, it is a vendor problem: follow the PayFlow outage runbook and post in #payflow-vendor.",
      "A rise in \"do_not_honor\" declines usually comes from card issuers, not from checkout.",
    ),
  },
  {
    fileName: "reference_linear_projects.md",
    ageDays: 320,
    author: "lena",
    name: "Linear projects for checkout work",
    description:
      "Checkout bugs and features live in Linear project CHK, PayFlow integration work in PAY; postmortem follow-ups carry label \"postmortem\"",
    type: "reference",
    body: lines(
      "Linear project CHK holds checkout bugs and features; PAY holds PayFlow integration work shared with the payments platform team.",
      "Postmortem follow-ups carry the \"postmortem\" label and are reviewed every Monday in triage.",
      "Customer-reported checkout problems arrive in CHK from support with the \"support\" label.",
    ),
  },
  {
    fileName: "reference_pagerduty_checkout.md",
    ageDays: 160,
    author: "lena",
    name: "PagerDuty schedule \"Checkout Primary\"",
    description:
      "Checkout on-call is PagerDuty schedule \"Checkout Primary\"; policy \"Checkout Escalation\" pages Lena, then Payments Platform",
    type: "reference",
    body: lines(
      "On-call for checkout is the PagerDuty schedule \"Checkout Primary\" (weekly rotation, handover Mondays 10:00 UTC).",
      "The escalation policy \"Checkout Escalation\" pages Lena after 15 minutes, then the Payments Platform on-call.",
      "To find who is on call right now, check the schedule rather than asking in Slack.",
    ),
  },
  {
    fileName: "reference_slack_channels.md",
    ageDays: 338,
    author: "priya",
    name: "Checkout Slack channels",
    description:
      "Slack: #checkout-dev for daily work, #checkout-incidents for live incidents, #payflow-vendor shared with PayFlow support",
    type: "reference",
    body: lines(
      "- #checkout-dev: day-to-day discussion, release announcements, freeze approvals.",
      "- #checkout-incidents: live incidents only; post the runbook link first.",
      "- #payflow-vendor: shared channel with PayFlow support; they usually answer within an hour during EU business hours.",
    ),
  },
  {
    fileName: "reference_runbook_payflow_outage.md",
    ageDays: 13,
    author: "omar",
    name: "PayFlow outage runbook",
    description:
      "Runbook for PayFlow outages, incl. switching checkout to queue-and-retry mode: https://wiki.acme.internal/checkout/runbooks/payflow-outage",
    type: "reference",
    body: lines(
      "Runbook: https://wiki.acme.internal/checkout/runbooks/payflow-outage",
      "It covers confirming a vendor outage on the \"Payments / PayFlow Vendor Health\" dashboard, switching checkout to queue-and-retry mode, and contacting PayFlow in #payflow-vendor.",
      "Rewritten after the 2026-10-21 double-charge incident; older copies of the steps in chat history are out of date.",
    ),
  },
  {
    fileName: "reference_kafka_topic_registry.md",
    ageDays: 270,
    author: "priya",
    name: "Kafka topic registry on the wiki",
    description:
      "Owners, schema versions and consumers of every order.* and payment.* Kafka topic: https://wiki.acme.internal/platform/kafka/topic-registry",
    type: "reference",
    body: lines(
      "The topic registry at https://wiki.acme.internal/platform/kafka/topic-registry lists each topic's owner, schema version and known consumers.",
      "Check it before changing or retiring an order.* or payment.* event.",
      "Consumer teams are supposed to register there, but some (analytics in particular) lag behind; ask in #checkout-dev when in doubt.",
    ),
  },
  {
    fileName: "reference_payflow_sandbox_guide.md",
    ageDays: 9,
    author: "omar",
    name: "PayFlow sandbox guide",
    description:
      "Wiki guide to the PayFlow sandbox (test cards, 3-D Secure scenarios, rate limits): https://wiki.acme.internal/checkout/payflow-sandbox",
    type: "reference",
    body: lines(
      "https://wiki.acme.internal/checkout/payflow-sandbox describes the PayFlow sandbox: which test cards trigger declines or 3-D Secure challenges, and its rate limits.",
      "The sandbox allows far fewer requests per minute than production, which is why the contract suite runs nightly instead of on every push.",
      "Sandbox access for a new CI pipeline is requested from the payments platform team.",
    ),
  },
];
