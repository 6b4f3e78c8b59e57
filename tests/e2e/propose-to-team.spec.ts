import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

const FOLDER = "-home-omar-src-acme-checkout";
const SHOTS = "test-results/screenshots";

test("a member proposes a private memory to the team from the dashboard and it lands in the lead's review queue", async ({ page, browser }) => {
  test.setTimeout(90_000);
  // The private list marks what the team already has (the synced team/ copies, oldest first).
  await signIn(page, "omar@acme.example", `/memories?scope=private&folder=${FOLDER}&sort=oldest`);
  await expect(page.getByTestId("in-team").first()).toContainText("in team: acme-checkout");

  // T2: a user memory stays private; the button is there but disabled, with the reason.
  await page.goto(`/memories/private/${FOLDER}/user_role.md`);
  await expect(page.getByTestId("propose-blocked")).toContainText("stays private and cannot be proposed");
  await expect(page.getByTestId("propose-to-team").getByRole("button", { name: "Propose to team" })).toBeDisabled();

  // A feedback memory goes, with the note that the lead confirms a team convention.
  await page.goto(`/memories/private/${FOLDER}/feedback_small_diffs.md`);
  const panel = page.getByTestId("propose-to-team");
  await expect(panel.getByTestId("convention-note")).toContainText("convention for the whole team");
  await expect(panel.getByLabel("Project")).toHaveValue("acme-checkout");
  await expect(panel.getByLabel("File name in the team store")).toHaveValue("feedback_small_diffs.md");
  await page.screenshot({ path: `${SHOTS}/propose-to-team.png`, fullPage: true });
  await panel.getByRole("button", { name: "Propose to team" }).click();

  await expect(page).toHaveURL(/\/review\/[^/]+$/);
  const proposalId = page.url().split("/").at(-1)!;
  await expect(page.getByTestId("proposal-state")).toHaveText(/submitted|in review/);
  await expect(page.getByText("via the dashboard")).toBeVisible();
  await expect(page.getByTestId("proposal-checks")).toContainText(/convention/i);

  // The lead sees it in the queue.
  const leadContext = await browser.newContext();
  const lead = await leadContext.newPage();
  await signIn(lead, "lena@acme.example", "/review");
  const row = lead.getByTestId("review-queue").getByTestId("queue-row").filter({ hasText: "Prefers small, PR-sized diffs" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Omar Haddad");
  await expect(row).toContainText("dashboard");
  await lead.screenshot({ path: `${SHOTS}/propose-to-team-queue.png`, fullPage: true });
  await leadContext.close();

  // Leave the shared demo queue as the other specs expect it.
  const withdrawn = await page.request.post(`/api/projects/acme-checkout/proposals/${proposalId}/withdraw`, { headers: { origin: new URL(page.url()).origin } });
  expect(withdrawn.status()).toBe(200);
});
