import { expect, test, type Page } from "@playwright/test";
import { TranscriptBuilder } from "../helpers/transcript-lines";
import { signIn } from "./sign-in";

const PROJECT = "acme-checkout";
const SHOTS = "test-results/screenshots";

/** A member's session sent to the extractions route, as `teammem extract` does (excerpt shared). */
async function extractAsMember(page: Page, transcript: TranscriptBuilder): Promise<{ id: string; name: string }[]> {
  const response = await page.request.post(`/api/projects/${PROJECT}/extractions`, {
    headers: { origin: new URL(page.url()).origin },
    data: { transcript: transcript.text(), shareExcerpt: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { selector: string; candidates: { name: string; proposal: { id?: string } }[] };
  expect(body.selector).toBe("rules"); // the e2e server has no model key
  return body.candidates.filter((candidate) => candidate.proposal.id).map((candidate) => ({ id: candidate.proposal.id!, name: candidate.name }));
}

test("a lead reviews extraction proposals with their evidence and handles a session's proposals together", async ({ page, browser }) => {
  test.setTimeout(150_000); // two extraction runs and two commits to the store

  // Omar's sessions: one with two plain project facts, one whose proposals the lead turns down.
  const kept = new TranscriptBuilder();
  kept.user("Can you look at why the nightly checkout job failed?");
  kept.assistant([{ text: "The job failed because the staging database was empty when it ran." }]);
  const userWords = kept.user("Remember that the staging database resets every night at 02:00 UTC.");
  kept.assistant([{ text: "Noted: I will schedule the job after the reset." }]);
  kept.user("Remember that checkout design tokens live in packages/ui of this repo.");
  const declined = new TranscriptBuilder();
  declined.user("Remember that the legacy coupon service is read only on Fridays.");
  declined.assistant([{ text: "Understood." }]);
  declined.user("From now on we squash every pull request into one commit.");

  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signIn(member, "omar@acme.example", "/");
  const keptProposals = await extractAsMember(member, kept);
  expect(keptProposals.map((proposal) => proposal.name)).toEqual(["The staging database resets every night at 02:00 UTC.", "Checkout design tokens live in packages/ui of this repo."]);
  const declinedProposals = await extractAsMember(member, declined);
  expect(declinedProposals).toHaveLength(2);
  await memberContext.close();

  // The queue's source filter shows extraction proposals only: the demo's and Omar's.
  await signIn(page, "lena@acme.example", "/review");
  await page.locator('[aria-label="View"]').getByRole("link", { name: "extraction", exact: true }).click();
  await expect(page).toHaveURL(/source=extraction/);
  const rows = page.getByTestId("review-queue").getByTestId("queue-row");
  await expect(rows.filter({ hasText: keptProposals[0]!.name })).toHaveCount(1);
  const sources = await rows.locator("td:nth-child(4) .muted").allTextContents();
  expect(sources.length).toBeGreaterThanOrEqual(keptProposals.length + declinedProposals.length);
  expect(new Set(sources)).toEqual(new Set(["extraction"]));
  await expect(rows.filter({ hasText: "Checkout p95 alert at 500 ms" })).toHaveCount(0); // a member proposal in the demo queue
  await page.screenshot({ path: `${SHOTS}/extraction-queue.png`, fullPage: true });

  // The proposal page: the user's words come first, before Claude's reply that preceded them.
  await rows.getByRole("link", { name: keptProposals[0]!.name }).click();
  const evidence = page.getByTestId("proposal-evidence");
  await expect(evidence).toContainText("rule-based extractor (low confidence)");
  const items = evidence.getByTestId("evidence-item");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText("The user said:");
  await expect(items.first()).toContainText("Remember that the staging database resets every night at 02:00 UTC.");
  await expect(items.nth(1)).toContainText("Claude said:");
  await page.screenshot({ path: `${SHOTS}/extraction-evidence.png`, fullPage: true });

  // "in context" opens the session's conversation at that message.
  await items.first().getByRole("link", { name: "in context" }).click();
  await expect(page).toHaveURL(new RegExp(`/review/sessions/${kept.sessionId}\\?project=${PROJECT}#m-${userWords}$`));
  const message = page.locator(`[id="m-${userWords}"]`);
  await expect(message).toBeInViewport();
  await expect(message).toContainText("User");
  await expect(message).toContainText("resets every night at 02:00 UTC");
  const sessionProposals = page.getByTestId("session-proposals");
  await expect(sessionProposals.locator("tbody tr")).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/extraction-session.png`, fullPage: true });

  // Both are clean: approved together, each one committed.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("session-bulk").getByRole("button", { name: "Approve all clean" }).click();
  await expect(sessionProposals.locator(".badge")).toHaveText(["committed", "committed"]);
  await expect(page.getByTestId("session-bulk")).toHaveCount(0);

  // The other session: everything open is rejected with one reason the proposer reads.
  await page.goto(`/review/sessions/${declined.sessionId}?project=${PROJECT}`);
  page.once("dialog", (dialog) => void dialog.accept("one-off chatter, not a team rule"));
  await page.getByTestId("session-bulk").getByRole("button", { name: "Reject all 2 open" }).click();
  await expect(page.getByTestId("session-proposals").locator(".badge")).toHaveText(["rejected", "rejected"]);
  await page.getByTestId("session-proposals").getByRole("link").first().click();
  await expect(page.getByTestId("proposal-state")).toHaveText("rejected");
  await expect(page.getByTestId("proposal-events")).toContainText("one-off chatter, not a team rule");
});

test("a sync proposal shows the write evidence only when the member shared it; otherwise it says none was shared", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signIn(member, "omar@acme.example", "/");
  const origin = new URL(member.url()).origin;
  const file = (name: string) => `---\nname: ${name}\ndescription: ${name}, agreed in the checkout team\ntype: project\n---\n${name}.\n`;
  const syncProposal = async (name: string, key: string, extra: Record<string, unknown>) => {
    const response = await member.request.post(`/api/projects/${PROJECT}/sync/proposals`, {
      headers: { origin },
      data: { path: `project_${key}.md`, content: file(name), baseBlob: null, idempotencyKey: `e2e-sync-evidence-${key}`, provenance: { checkout: "/home/omar/src/acme-checkout", baseCommit: null, clientVersion: "e2e", ...extra } },
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { proposal: { id: string } }).proposal.id;
  };
  const withoutEvidence = await syncProposal("Refunds settle in two days", "refunds_settle", { isEvidenceShared: false });
  const withEvidence = await syncProposal("Coupons expire at midnight UTC", "coupons_expire", {
    isEvidenceShared: true,
    writeEvidence: { session: "e2e-session-1", time: "2026-11-30T09:12:00.000Z", writtenBy: "main-agent", messages: [{ uuid: "u-1", role: "user", excerpt: "Save for the team that coupons expire at midnight UTC." }, { uuid: "a-1", role: "assistant", excerpt: "Writing it to team memory." }] },
  });

  await signIn(page, "lena@acme.example", `/review/${withoutEvidence}`);
  await expect(page.getByTestId("sync-origin")).toContainText("Omar Haddad");
  await expect(page.getByTestId("no-evidence")).toHaveText("No evidence was shared (the member can opt in with `teammem sync --share-evidence`).");

  await page.goto(`/review/${withEvidence}`);
  await expect(page.getByTestId("sync-origin")).toContainText("by the main agent at the user's request, 2026-11-30 09:12 in session e2e-session-1");
  await expect(page.getByTestId("evidence-item").first()).toContainText("The user said: Save for the team that coupons expire at midnight UTC.");
  await expect(page.getByTestId("no-evidence")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/sync-evidence.png`, fullPage: true });

  // Leave the shared demo queue as the other specs expect it.
  for (const proposalId of [withoutEvidence, withEvidence]) {
    expect((await member.request.post(`/api/projects/${PROJECT}/proposals/${proposalId}/withdraw`, { headers: { origin } })).status()).toBe(200);
  }
  await memberContext.close();
});
