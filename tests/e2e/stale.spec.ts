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

test("a viewer reads a team memory without a form to propose a change: that is members' and leads'", async ({ page, browser }) => {
  await signIn(page, "admin@teammem.local", "/settings");
  const origin = new URL(page.url()).origin;
  const email = `viewer-${Date.now()}@acme.example`;
  const created = await page.request.post("/api/admin/users", { headers: { origin }, data: { email, name: "Vera Viewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const { oneTimePassword } = (await created.json()) as { oneTimePassword: string };
  const role = await page.request.post("/api/projects/acme-checkout/members", { headers: { origin }, data: { email, role: "viewer" } });
  expect(role.status(), await role.text()).toBe(200);

  const viewer = await browser.newPage();
  await signIn(viewer, email, "/memories?project=acme-checkout&freshness=stale", oneTimePassword);
  await viewer.getByTestId("memory-table").locator("tbody tr").first().getByRole("link").first().click();
  await expect(viewer.getByTestId("propose-members-only")).toContainText("a member or lead of acme-checkout can propose");
  await expect(viewer.getByRole("button", { name: /propose/i })).toHaveCount(0);
  await expect(viewer.getByTestId("still-true-leads-only")).not.toContainText("propose below");
  await viewer.close();
});
