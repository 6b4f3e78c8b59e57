import { expect, test, type Locator } from "@playwright/test";
import { signIn } from "./sign-in";

/** Every non-zero number in a chart's data table is also written on a bar: the chart reads without colour. */
async function expectValuesOnBars(chart: Locator): Promise<void> {
  await expect(chart.locator("svg.recharts-surface").last()).toBeVisible(); // the first ones are legend icons
  const cells = await chart.locator("details table tbody td").allTextContents();
  const barLabels = await chart.locator("svg .recharts-label-list text").allTextContents();
  const nonZero = cells.filter((value) => Number(value) > 0);
  expect(nonZero.length).toBeGreaterThan(0);
  expect(barLabels.sort()).toEqual(nonZero.sort());
  // Assistive technology gets the same numbers in words.
  expect(await chart.locator("div[role=img]").getAttribute("aria-label")).toMatch(/\d/);
}

test("a lead reads what needs attention and the project at a glance, in charts labelled without colour", async ({ page }) => {
  await signIn(page, "lena@acme.example");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const attention = page.getByTestId("overview-attention");
  await expect(attention).toContainText(/\d+ proposals are open for review, the oldest waiting \d+ days?\./);
  await expect(attention.getByRole("link", { name: /open for review/ })).toHaveAttribute("href", "/review?project=acme-checkout");

  const glance = page.getByTestId("overview-project");
  await expect(glance.getByRole("heading", { name: "Acme Checkout at a glance" })).toBeVisible();
  await expectValuesOnBars(glance.getByTestId("chart-memories-by-type"));
  await expectValuesOnBars(glance.getByTestId("chart-age"));
  await expectValuesOnBars(glance.getByTestId("chart-proposals-per-week"));
  await expectValuesOnBars(glance.getByTestId("chart-decisions"));
  await expectValuesOnBars(glance.getByTestId("chart-recall-per-day"));
  await expect(glance.getByTestId("stat-open")).toContainText("open proposals");
  await expect(glance.getByTestId("most-recalled").locator("li").first()).toContainText("×");

  // The demo's old project notes are stale (no code repository is set, so only age and dates are checked).
  const stale = glance.getByTestId("overview-stale");
  await expect(stale).toContainText("Code citations not checked");
  const stalest = stale.getByTestId("top-stale").getByRole("link");
  expect(await stalest.count()).toBeGreaterThan(0);
  expect(await stalest.count()).toBeLessThanOrEqual(10);
  await expectValuesOnBars(stale.getByTestId("chart-stale-reasons"));

  await page.screenshot({ path: "test-results/screenshots/overview-lead.png", fullPage: true });
  // The same page in greyscale: patterns, legends and numbers carry the meaning.
  await page.addStyleTag({ content: "html { filter: grayscale(1); }" });
  await page.screenshot({ path: "test-results/screenshots/overview-greyscale.png", fullPage: true });

  await stalest.first().click();
  await expect(page).toHaveURL(/\/memories\/team\/acme-checkout\//);
});

test("a member sees the queue and freshness but not the recall log", async ({ page }) => {
  await signIn(page, "priya@acme.example");
  const glance = page.getByTestId("overview-project");
  await expect(glance.getByTestId("overview-review")).toBeVisible();
  await expect(glance.getByTestId("overview-recall")).toContainText("only the project's leads and admins may read");
  await expect(glance.getByTestId("chart-recall-per-day")).toHaveCount(0);
  await expect(glance.getByTestId("most-recalled")).toHaveCount(0);
});

test("an admin with no role in the project reads its recall, as the recall-events API lets her", async ({ page }) => {
  await signIn(page, "admin@teammem.local", "/?project=acme-checkout");
  const glance = page.getByTestId("overview-project");
  await expect(glance.getByTestId("chart-recall-per-day")).toBeVisible();
  await expect(glance.getByTestId("overview-recall")).not.toContainText("may read");
  await page.goto("/recall");
  await expect(page.getByRole("heading", { name: "What agents were given in Acme Checkout" })).toBeVisible();
});
