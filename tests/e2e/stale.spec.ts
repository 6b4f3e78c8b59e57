import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

const SHOTS = "test-results/screenshots";

test("the lead finds stale memories by reason, reads the evidence and marks one still true", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/memories?project=acme-checkout&sort=stalest");
  const freshness = page.getByLabel("Freshness");
  await expect(freshness.getByRole("link", { name: /^stale \(\d+\)$/ })).toBeVisible();
  await freshness.getByRole("link", { name: /^Date has passed \(\d+\)$/ }).click();
  await expect(page).toHaveURL(/reason=past-date/);
  const rows = page.getByTestId("memory-table").locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const cell of await page.getByTestId("freshness").allTextContents()) expect(cell).toContain("Date has passed");
  await expect(page.getByTestId("bulk-retire")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/stale-list.png`, fullPage: true });

  await rows.first().getByRole("link").first().click();
  const section = page.getByTestId("memory-freshness");
  await expect(section.getByTestId("stale-signals")).toContainText(/Date has passed: ".+" \(line \d+\)/);
  // The demo project has no code repository: its citations are "not checked", never "fresh".
  await section.getByRole("button", { name: "Still true" }).click();
  await expect(section.getByRole("status")).toContainText(/Recorded as still true on \d{4}-\d{2}-\d{2} \(commit [0-9a-f]{7}\)/);
  await expect(section.getByTestId("verifications")).toContainText("Lena Park on");
  await expect(page.getByTestId("history-table")).toContainText("Still true:");
  await page.screenshot({ path: `${SHOTS}/stale-memory.png`, fullPage: true });
});

test("a member sees a stale memory's signals but no 'Still true' button: that is the leads'", async ({ page }) => {
  await signIn(page, "omar@acme.example", "/memories?project=acme-checkout&freshness=stale");
  await page.getByTestId("memory-table").locator("tbody tr").first().getByRole("link").first().click();
  const section = page.getByTestId("memory-freshness");
  await expect(section.getByTestId("stale-signals")).toBeVisible();
  await expect(section.getByRole("button", { name: "Still true" })).toHaveCount(0);
  await expect(section.getByTestId("still-true-leads-only")).toContainText("A lead of acme-checkout can confirm it is still true");
});
