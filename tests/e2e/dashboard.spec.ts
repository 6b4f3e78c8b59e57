import { expect, test } from "@playwright/test";

test("a newcomer sees the demo project with its memory count and can visit every page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const card = page.getByTestId("project-card").filter({ hasText: "Acme Checkout" });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("memory-count")).toHaveText("30");
  await page.screenshot({ path: "test-results/screenshots/overview.png", fullPage: true });

  await card.click();
  await expect(page).toHaveURL(/\/memories\?project=acme-checkout/);
  await expect(page.getByTestId("memory-table").locator("tbody tr")).toHaveCount(25); // first page
  await expect(page.getByText("freshness warning").first()).toBeVisible();
  await expect(page.getByTestId("private-table")).toContainText("-home-omar-src-acme-checkout");
  await page.screenshot({ path: "test-results/screenshots/memories.png", fullPage: true });

  await page.getByRole("link", { name: /^reference \(8\)$/ }).click();
  await expect(page.getByTestId("memory-table").locator("tbody tr")).toHaveCount(8);

  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, heading] of [["Review", "Review"], ["Recall", "Recall"], ["Settings", "Settings"], ["Memories", "Memories"], ["Overview", "Overview"]]) {
    await nav.getByRole("link", { name: label }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
  }

  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByTestId("health-table")).toContainText("team store");
  await expect(page.getByTestId("health-table")).not.toContainText("fail");
  await page.screenshot({ path: "test-results/screenshots/settings.png", fullPage: true });
});

test("the API reports the demo project and health, and unknown pages say so", async ({ request, page }) => {
  const projects = await request.get("/api/projects");
  expect(projects.status()).toBe(200);
  const body = (await projects.json()) as { projects: { id: string; memoryCount: number }[] };
  expect(body.projects).toEqual([expect.objectContaining({ id: "acme-checkout", memoryCount: 30 })]);

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);

  await page.goto("/no-such-page");
  await expect(page.getByText("There is no page here.")).toBeVisible();
});
