import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("the lead asks what an agent would be given, sees why, and finds the request in the log", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/recall");
  await expect(page.getByRole("heading", { level: 1, name: "Recall" })).toBeVisible();
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

  await page.reload();
  await expect(page.getByTestId("recall-events")).toContainText("feedback_real_db_in_tests.md");
});

test("a member sees the playground but not the lead's log", async ({ page }) => {
  await signIn(page, "priya@acme.example", "/recall");
  await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();
  await expect(page.getByTestId("recall-events")).toHaveCount(0);
});
