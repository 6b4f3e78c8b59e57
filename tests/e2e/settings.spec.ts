import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("an admin with no project role creates a token on Settings, as the API allows", async ({ page }) => {
  await signIn(page, "admin@teammem.local", "/settings");
  const form = page.getByRole("form", { name: "Create token" });
  await expect(form).toBeVisible();
  await expect(page.getByText("nothing a token could reach")).toHaveCount(0);
  await form.getByLabel("Name").fill(`admin cli ${Date.now()}`);
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toContainText("tm_");
});

test("the token form refuses an expiry of 0 days and the list shows each token's expiry", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/settings");
  const form = page.getByRole("form", { name: "Create token" });
  const name = `short-lived ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/Expires in days/).fill("0");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Expires in days: a whole number from 1 to 3650" })).toBeVisible();
  await expect(page.getByTestId("new-token")).toHaveCount(0);

  await form.getByLabel(/Expires in days/).fill("30");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toBeVisible();
  const row = page.getByTestId("token-table").getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await expect(row.getByTestId("token-expires")).toHaveText(expires);
});
