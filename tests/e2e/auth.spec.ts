import { spawnSync } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, submitSignIn } from "./sign-in";

function teammem(args: string[], env: Record<string, string>, input?: string) {
  const result = spawnSync(process.execPath, ["cli/teammem.mjs", ...args], { input, encoding: "utf8", env: { ...process.env, TEAMMEM_TOKEN: "", ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("nothing is open without signing in", async ({ page, request }) => {
  await page.goto("/memories");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fmemories/);
  expect((await request.get("/api/projects")).status()).toBe(401);
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(JSON.stringify(await health.json())).not.toContain("/"); // no paths for strangers
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  await page.goto("/sign-in");
  await submitSignIn(page, "lena@acme.example", "definitely-wrong-password");
  await expect(page.locator(".form-error")).toHaveText("Wrong email or password.");
});

test("a lead creates an API token, sees it once, uses it, revokes it, and signs out", async ({ page, request }) => {
  await signIn(page, "lena@acme.example", "/settings");
  await page.getByLabel("Name").first().fill("e2e laptop");
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token").locator("code").first();
  await expect(shown).toHaveText(/^tm_[A-Za-z0-9]{40}$/);
  const token = (await shown.textContent())!;
  await page.screenshot({ path: "test-results/screenshots/token-created.png", fullPage: true });

  const me = await request.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe("lena@acme.example");

  // The CLI logs in with it, keeps it owner-only, and says who it is.
  const configHome = mkdtempSync(path.join(os.tmpdir(), "teammem-cli-"));
  const server = test.info().project.use.baseURL!;
  const login = teammem(["login", "--server", server, "--json"], { XDG_CONFIG_HOME: configHome }, token + "\n");
  expect(login.stderr).toBe("");
  expect(login.code).toBe(0);
  expect(statSync(path.join(configHome, "teammem", "credentials.json")).mode & 0o777).toBe(0o600);
  const whoami = teammem(["whoami", "--json"], { XDG_CONFIG_HOME: configHome });
  expect(JSON.parse(whoami.stdout).user.email).toBe("lena@acme.example");

  await page.reload(); // shown once: after a reload only the prefix remains
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  const row = page.getByTestId("token-table").locator("tr", { hasText: "e2e laptop" });
  await expect(row).toContainText(token.slice(0, 7));
  await expect(page.getByText(token)).toHaveCount(0);
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  expect((await request.get("/api/me", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  const afterRevoke = teammem(["whoami"], { XDG_CONFIG_HOME: configHome });
  expect(afterRevoke.code).not.toBe(0);
  expect(afterRevoke.stderr).toMatch(/revoked/);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("an admin creates an account; its owner signs in with the one-time password and replaces it", async ({ page }) => {
  await signIn(page, "admin@teammem.local", "/settings");
  const create = page.getByRole("form", { name: "Create account" });
  await create.getByLabel("Name").fill("Nina New");
  await create.getByLabel("Email").fill("nina@acme.example");
  await create.getByRole("button", { name: "Create account" }).click();
  const oneTime = (await page.locator(".secret-once code").textContent())!;
  expect(oneTime).toMatch(/^[A-Za-z0-9]{20}$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  await signIn(page, "nina@acme.example", "/settings", oneTime);
  await expect(page.getByTestId("signed-in-as")).toHaveText("Nina New");
  const change = page.getByRole("form", { name: "Change password" });
  await change.getByLabel("Current password").fill(oneTime);
  await change.getByLabel("New password", { exact: true }).fill("nina-chose-this-one");
  await change.getByLabel("Repeat new password").fill("nina-chose-this-one");
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(change.getByRole("status")).toHaveText(/Password changed/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  await page.goto("/settings");
  await submitSignIn(page, "nina@acme.example", oneTime);
  await expect(page.locator(".form-error")).toHaveText("Wrong email or password.");
  await submitSignIn(page, "nina@acme.example", "nina-chose-this-one");
  await expect(page.getByTestId("signed-in-as")).toHaveText("Nina New");
});
