import { expect, type Page } from "@playwright/test";
import { E2E_PASSWORD } from "../../playwright.config";

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, email: string, returnTo = "/"): Promise<void> {
  await page.goto(returnTo);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}
