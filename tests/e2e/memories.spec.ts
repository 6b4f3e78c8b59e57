import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { signIn } from "./sign-in";

const PRIVATE_FOLDER = "-home-omar-src-acme-checkout";
const PRIVATE_INDEX = path.join(E2E_DATA_DIR, "demo-home", ".claude", "projects", PRIVATE_FOLDER, "memory", "MEMORY.md");
const SHOTS = "test-results/screenshots";

test("the lead browses team memory, filters it, opens a memory with its header, body and history", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/memories?project=acme-checkout");
  const rows = page.getByTestId("memory-table").locator("tbody tr");
  await expect(rows).toHaveCount(25);

  await page.getByRole("link", { name: /^older than 90 days \(\d+\)$/ }).click();
  await expect(page).toHaveURL(/age=over-90/);
  const oldCount = Number(/\((\d+)\)/.exec((await page.getByRole("link", { name: /^older than 90 days/ }).textContent()) ?? "")?.[1]);
  expect(oldCount).toBeGreaterThan(0);
  await expect(rows).toHaveCount(Math.min(25, oldCount));
  for (const age of await page.getByTestId("memory-table").locator("tbody tr td:last-child").allTextContents()) {
    expect(Number(/(\d+) days ago/.exec(age)?.[1])).toBeGreaterThanOrEqual(90);
  }

  await page.getByRole("link", { name: "oldest first" }).click();
  await expect(page).toHaveURL(/sort=oldest/);
  await page.getByRole("link", { name: /^feedback \(\d+\)$/ }).click();
  await expect(page).toHaveURL(/type=feedback.*sort=oldest|sort=oldest.*type=feedback/);
  await page.screenshot({ path: `${SHOTS}/memories-filtered.png`, fullPage: true });

  await page.getByRole("link", { name: "Integration tests hit a real database" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Integration tests hit a real database" })).toBeVisible();
  const header = page.getByTestId("agent-header");
  await expect(header).toContainText(/^This memory is \d+ days old\./);
  await expect(header).toContainText("Memory: memory/team/feedback_real_db_in_tests.md:");
  await expect(page.getByTestId("memory-body").locator("strong", { hasText: "Why:" })).toBeVisible();
  await expect(page.getByTestId("frontmatter-table")).toContainText("feedback");
  await expect(page.getByTestId("history-table")).toContainText("Add feedback memory: Integration tests hit a real database");
  await expect(page.getByTestId("history-table")).toContainText("Lena Park");
  await page.screenshot({ path: `${SHOTS}/memory.png`, fullPage: true });

  await page.goto("/memories/team/acme-checkout/MEMORY.md");
  await expect(page.getByTestId("index-budget")).toContainText("of 200 lines");
  await expect(page.getByTestId("index-text")).toContainText("feedback_real_db_in_tests.md");
  await page.screenshot({ path: `${SHOTS}/memory-index-team.png`, fullPage: true });
});

test("hostile memory paths and other people's private memory answer 404", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/memories");
  for (const address of ["/memories/team/acme-checkout/..%2F..%2Fteammem.json", "/memories/team/acme-checkout/%2Fetc%2Fpasswd.md", "/memories/team/acme-checkout/a%00b.md"]) {
    // The UI is Next's not-found page; its status stays 200 because the root loading.tsx
    // starts streaming before the page decides (the API answers a real 404, checked below).
    await page.goto(address);
    await expect(page.getByTestId("memory-not-found")).toBeVisible();
  }
  await page.goto(`/memories/private/${PRIVATE_FOLDER}/MEMORY.md`);
  await expect(page.getByTestId("memories-not-found")).toContainText("shown only to the owner of this machine's Claude home");
  const response = await page.request.post("/api/memory-index/repair", {
    headers: { origin: new URL(page.url()).origin },
    data: { folder: PRIVATE_FOLDER, expectedHash: "0".repeat(64) },
  });
  expect(response.status()).toBe(404);
});

test("the owner browses private memory and repairs a broken MEMORY.md after seeing the diff", async ({ page }) => {
  await appendFile(PRIVATE_INDEX, "- [Old deploy notes](old_deploy_notes.md) — removed long ago\n");
  await signIn(page, "omar@acme.example", `/memories?scope=private&folder=${PRIVATE_FOLDER}`);
  await expect(page.getByTestId("memory-table")).toContainText("No summary at the end of responses");
  await page.getByRole("link", { name: "No summary at the end of responses" }).click();
  await expect(page.getByTestId("agent-header")).toContainText(`${PRIVATE_FOLDER}/memory/feedback_no_trailing_summary.md:`);
  await expect(page.getByText("not versioned")).toBeVisible();

  await page.getByRole("link", { name: "MEMORY.md of this directory" }).click();
  await expect(page.getByTestId("findings")).toContainText("index-dangling");
  await expect(page.getByTestId("dangling")).toContainText("old_deploy_notes.md");
  await page.getByRole("button", { name: "Repair MEMORY.md…" }).click();
  await expect(page.getByTestId("repair-diff").locator(".diff-removed")).toContainText("old_deploy_notes.md");
  await page.screenshot({ path: `${SHOTS}/memory-index-repair-diff.png`, fullPage: true });

  await page.getByRole("button", { name: "Apply repair" }).click();
  await expect(page.getByTestId("repair-result")).toContainText("1 dangling entry removed");
  await expect(page.getByTestId("index-text")).not.toContainText("old_deploy_notes.md");
  await expect(page.getByTestId("dangling")).toHaveCount(0);
  expect(await readFile(PRIVATE_INDEX, "utf8")).not.toContain("old_deploy_notes.md");
  await page.screenshot({ path: `${SHOTS}/memory-index-repaired.png`, fullPage: true });
});
