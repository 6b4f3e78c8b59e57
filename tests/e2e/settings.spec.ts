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
