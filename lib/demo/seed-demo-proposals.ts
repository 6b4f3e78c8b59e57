import { randomBytes } from "node:crypto";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { serializeMemory } from "../memdir/frontmatter";
import { submitProposal } from "../review/submit-proposal";
import { readCurrentFile } from "../store/commit-change";
import { seedDemoActivity } from "./seed-demo-activity";
import { DEMO_PROJECT } from "./demo-team";

type DemoProposal = { proposer: string; path: string; source: "member" | "extraction"; provenance: Record<string, unknown>; content: (current: string | null) => string };

// A credential-shaped value made fresh at seed time (never a literal in the repository), so the
// queue shows what happens when a proposal carries a secret.
function freshSandboxKey(): string {
  return `sk_test_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
}

const memory = (name: string, description: string, type: string, body: string) => serializeMemory({ name, description, type }, body);

const DEMO_PROPOSALS: DemoProposal[] = [
  {
    proposer: "omar@acme.example",
    path: "project_checkout_p95_alert.md",
    source: "member",
    provenance: { from: "private memory", file: "project_p95_alert.md" },
    content: () =>
      memory("Checkout p95 alert at 500 ms", "On-call pages when checkout submit p95 stays above 500 ms for 10 minutes (alert set 2026-11-27)", "project",
        "The checkout submit p95 alert pages on-call at 500 ms sustained for 10 minutes, set on 2026-11-27.\n**Why:** the Q1 2027 latency goal is 400 ms; 500 ms leaves room before customers notice.\n**How to apply:** treat a page as a regression hunt in the last deploys, not as noise.\n"),
  },
  {
    proposer: "priya@acme.example",
    path: "feedback_contract_tests_before_merge.md",
    source: "extraction",
    provenance: { transcript: "5f0c2a9e-3b1d-4c7e-9a55-0d6f1e2b7c41", messages: "12-19" },
    content: () =>
      memory("Contract tests before merging PayFlow changes", "Run the PayFlow contract suite locally before merging any change to payment adapters", "feedback",
        "Run the PayFlow contract suite before merging any change under the payment adapters.\n**Why:** the 2026-10-21 double-charge incident came from an adapter change merged with only unit tests green.\n**How to apply:** every PR touching payment adapters; paste the contract run summary in the PR.\n"),
  },
  {
    proposer: "omar@acme.example",
    path: "reference_payflow_sandbox_keys.md",
    source: "member",
    provenance: { from: "private memory", file: "reference_sandbox.md" },
    content: () =>
      memory("PayFlow sandbox access", "How to call the PayFlow sandbox from a laptop for contract test debugging", "reference",
        `Sandbox base URL: https://sandbox.payflow.example/v2\nAPI key: ${freshSandboxKey()}\nThe team dashboard for sandbox requests is "PayFlow Sandbox" in Grafana.\n`),
  },
  {
    proposer: "priya@acme.example",
    path: "project_holiday_freeze_2026.md",
    source: "member",
    provenance: { from: "dashboard edit" },
    content: (current) => (current ?? "").replace(/only sev1\/sev2 fixes deploy/, "only sev1/sev2 fixes and the PayFlow v2 webhook cutover deploy"),
  },
  {
    proposer: "omar@acme.example",
    path: "user_prefers_go_examples.md",
    source: "extraction",
    provenance: { transcript: "9a3e7c21-55b0-4f8d-8e1a-2c6b0d9f4e73", messages: "3-4" },
    content: () =>
      memory("Prefers Go examples", "Omar understands examples best when they are shown in Go first", "user",
        "Omar has six years of Go and is newer to TypeScript; show a Go analogue when explaining TS idioms.\n"),
  },
];

/** A small review queue for the demo: clean, needs-confirmation, secret, an edit, a personal memory. */
export async function seedDemoProposals(config: Config, db: Db): Promise<number> {
  let count = 0;
  for (const proposal of DEMO_PROPOSALS) {
    const proposer = await db.user.findUnique({ where: { email: proposal.proposer }, select: { id: true } });
    if (!proposer) continue;
    const current = await readCurrentFile(config, DEMO_PROJECT.id, proposal.path);
    await submitProposal(config, db, {
      projectId: DEMO_PROJECT.id,
      path: proposal.path,
      content: proposal.content(current?.content ?? null),
      baseBlob: current?.blob ?? null,
      source: proposal.source,
      proposerId: proposer.id,
      provenance: proposal.provenance,
    });
    count++;
  }
  await seedDemoActivity(config, db, new Date());
  return count;
}
