import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { signIn } from "./sign-in";

const LEAD = { name: "Tara Quinn", email: "tara@billing.example" };
const MEMORY_NAME = "Billing events go through the outbox";
const MEMORY = `---
name: ${MEMORY_NAME}
description: Billing events are published through the transactional outbox since 2026-11-02, never directly
type: project
---
Billing publishes events through the transactional outbox, decided 2026-11-02.
**Why:** a lost event double-charged a customer in October.
**How to apply:** every new billing event type.
`;

test("an admin creates a project and names its lead; the lead's token proposes the first memory into its review queue", async ({ page, request }) => {
  test.setTimeout(120_000);
  // The lead's account comes first: an admin creates it on Settings and gets a one-time password.
  await signIn(page, "admin@teammem.local", "/settings");
  const account = page.getByRole("form", { name: "Create account" });
  await account.getByLabel("Name").fill(LEAD.name);
  await account.getByLabel("Email").fill(LEAD.email);
  await account.getByRole("button", { name: "Create account" }).click();
  const oneTimePassword = (await page.locator(".secret-once code").textContent())!;
  expect(oneTimePassword).toMatch(/^[A-Za-z0-9]{20}$/);

  // The project: from the Projects page in the navigation, its id derived from the repository.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  const form = page.getByRole("form", { name: "New project" });
  await form.getByLabel("Name").fill("Acme Billing");
  await form.getByLabel(/Repository URLs/).fill("git@github.com:acme/billing.git\nhttps://github.com/acme/billing-legacy/");
  await form.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/acme-billing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Acme Billing" })).toBeVisible();
  await expect(page.locator(".lead")).toContainText("github.com/acme/billing, github.com/acme/billing-legacy");
  await expect(page.getByTestId("next-steps")).toContainText("teammem login");
  await expect(page.getByTestId("next-steps").getByRole("link", { name: "Settings" }).first()).toHaveAttribute("href", "/settings");

  // The store recorded it: teammem.json lists it and its folder exists, in one commit.
  const storeGit = (...args: string[]) => execFileSync("git", ["--git-dir", path.join(E2E_DATA_DIR, "store.git"), ...args], { encoding: "utf8" });
  expect(JSON.parse(storeGit("show", "main:teammem.json")).projects).toContainEqual({
    id: "acme-billing", name: "Acme Billing", remote: "github.com/acme/billing", repoUrls: ["github.com/acme/billing", "github.com/acme/billing-legacy"],
  });
  expect(storeGit("log", "-1", "--format=%s", "main").trim()).toBe("Create project Acme Billing (acme-billing)");
  expect(storeGit("ls-tree", "--name-only", "main", "projects/acme-billing/").trim()).toBe("projects/acme-billing/MEMORY.md");

  // Its first lead, by email.
  const firstLead = page.getByRole("form", { name: "Add the first lead" });
  await firstLead.getByLabel("Lead's email").fill(LEAD.email);
  await firstLead.getByRole("button", { name: "Make lead" }).click();
  await expect(page.getByRole("form", { name: "Add the first lead" })).toHaveCount(0);
  await expect(page.locator("table").filter({ hasText: LEAD.email })).toContainText("lead");
  await page.screenshot({ path: "test-results/screenshots/project-settings.png", fullPage: true });

  // The Overview shows the empty project with what to do next.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  const card = page.getByTestId("project-card").filter({ hasText: "Acme Billing" });
  await expect(card.getByTestId("memory-count")).toHaveText("0");
  await expect(card.getByTestId("empty-project-hint")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  // The lead signs in and creates a token for the new project on Settings.
  await signIn(page, LEAD.email, "/settings", oneTimePassword);
  const tokenForm = page.getByRole("form", { name: "Create token" });
  await tokenForm.getByLabel("Name").fill("tara laptop");
  await expect(tokenForm.getByLabel("acme-billing")).toBeChecked();
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").locator("code").first().textContent())!;
  expect(token).toMatch(/^tm_[A-Za-z0-9]{40}$/);

  // The CLI sees the project with that token.
  const server = test.info().project.use.baseURL!;
  const cli = spawnSync(process.execPath, ["cli/teammem.mjs", "projects", "list", "--json"], {
    encoding: "utf8",
    env: { ...process.env, TEAMMEM_TOKEN: token, TEAMMEM_SERVER: server, XDG_CONFIG_HOME: mkdtempSync(path.join(os.tmpdir(), "teammem-cli-")) },
  });
  expect(cli.status).toBe(0);
  expect((JSON.parse(cli.stdout) as { projects: { id: string; memoryCount: number }[] }).projects).toEqual([expect.objectContaining({ id: "acme-billing", memoryCount: 0 })]);

  // A proposal made with the token lands in the new project's review queue.
  const proposed = await request.post("/api/projects/acme-billing/proposals", {
    headers: { authorization: `Bearer ${token}` },
    data: { path: "project_billing_outbox.md", content: MEMORY },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  await page.goto("/review"); // a full load: the navigation's count is rendered with the page
  await expect(page.getByTestId("review-count")).toHaveText("1");
  await expect(page.getByTestId("review-queue").getByRole("link", { name: MEMORY_NAME })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/project-first-proposal.png", fullPage: true });

  // Archiving hides it from the lead's lists; the admin still finds it under Archived.
  await page.goto("/projects/acme-billing");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Archive this project…" }).click();
  await expect(page.getByTestId("archived-badge")).toBeVisible();
  await page.goto("/projects");
  await expect(page.getByText("Acme Billing")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, "admin@teammem.local", "/projects");
  const archived = page.getByTestId("archived-projects");
  await expect(archived).toContainText("Acme Billing");
  await archived.getByRole("button", { name: "Unarchive" }).click();
  await expect(page.getByTestId("project-table")).toContainText("Acme Billing");
});
