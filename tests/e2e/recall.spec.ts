import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("the lead asks what an agent would be given, sees why, and finds her tries apart from what agents were given", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/recall");
  await expect(page.getByRole("heading", { level: 1, name: "Recall" })).toBeVisible();
  const agentRecalls = async () => ((await (await page.request.get("/api/projects/acme-checkout/recall-events")).json()) as { events: unknown[] }).events.length;
  const agentRecallsBefore = await agentRecalls();
  await expect(page.getByText("the local ranker (set ANTHROPIC_API_KEY")).toBeVisible();

  await page.getByLabel("Prompt", { exact: true }).fill("our integration tests mock the database, should they hit a real database instead?");
  await page.getByRole("button", { name: "Recall" }).click();
  const result = page.getByTestId("recall-result");
  await expect(result).toContainText("Selected by the local ranker");
  const first = page.getByTestId("recalled-memory").first();
  await expect(first).toContainText("feedback_real_db_in_tests.md");
  // The exact text an agent receives: a system reminder with the freshness header (A3, R7).
  await expect(first.locator("pre")).toContainText("<system-reminder>");
  await expect(first.locator("pre")).toContainText("days old");
  await expect(page.getByTestId("manifest")).toContainText("- [feedback] feedback_real_db_in_tests.md (");
  await page.screenshot({ path: "test-results/screenshots/recall.png", fullPage: true });

  await page.getByLabel("Prompt", { exact: true }).fill("what is the weather like in Lisbon tomorrow");
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(result).toContainText("No memory is relevant enough");

  await page.getByLabel("Prompt", { exact: true }).fill("database");
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(result).toContainText("one-word prompts get no recall");

  // Tries gave no agent anything: listed apart, labelled as tries, the agents' log unchanged.
  await page.reload();
  expect(await agentRecalls()).toBe(agentRecallsBefore);
  await page.getByText("Tries on this page in Acme Checkout").click();
  await expect(page.getByTestId("recall-tries")).toContainText("feedback_real_db_in_tests.md");
  await expect(page.getByTestId("recall-tries").locator("tbody tr")).toHaveCount(3);
});

test("a member sees the playground but not the lead's log", async ({ page }) => {
  await signIn(page, "priya@acme.example", "/recall");
  await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();
  await expect(page.getByTestId("recall-events")).toHaveCount(0);
});
