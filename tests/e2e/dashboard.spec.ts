import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("a member sees the demo project with its memory count, their private memory, and every page", async ({ page }) => {
  await signIn(page, "omar@acme.example");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const card = page.getByTestId("project-card").filter({ hasText: "Acme Checkout" });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("memory-count")).toHaveText("30");
  await page.screenshot({ path: "test-results/screenshots/overview.png", fullPage: true });

  await card.click();
  await expect(page).toHaveURL(/\/memories\?project=acme-checkout/);
  await expect(page.getByTestId("memory-table").locator("tbody tr")).toHaveCount(25); // first page
  await expect(page.getByText("freshness warning").first()).toBeVisible();
  // Omar owns the demo Claude home, so he (and only he) sees its private memory.
  await expect(page.getByTestId("private-table")).toContainText("-home-omar-src-acme-checkout");
  await page.screenshot({ path: "test-results/screenshots/memories.png", fullPage: true });

  await page.getByRole("link", { name: /^reference \(8\)$/ }).click();
  await expect(page.getByTestId("memory-table").locator("tbody tr")).toHaveCount(8);

  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of ["Review", "Recall", "Settings", "Memories", "Overview"]) {
    await nav.getByRole("link", { name: label }).click();
    await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
    await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
  }
});

test("the lead does not see another person's private memory", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/memories");
  await expect(page.getByTestId("memory-table")).toBeVisible();
  await expect(page.getByTestId("private-table")).toHaveCount(0);
  await expect(page.getByText(/visible only to the owner/)).toBeVisible();
});

test("the admin sees configuration and health; unknown pages say so", async ({ page }) => {
  await signIn(page, "admin@teammem.local", "/settings");
  await expect(page.getByTestId("health-table")).toContainText("team store");
  await expect(page.locator(".status-fail")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/settings.png", fullPage: true });
  await page.goto("/no-such-page");
  await expect(page.getByText("There is no page here.")).toBeVisible();
});
