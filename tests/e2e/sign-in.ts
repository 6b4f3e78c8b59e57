import { expect, type Page } from "@playwright/test";
import { E2E_PASSWORD } from "../../playwright.config";

/** Fills the sign-in form and submits it, as a person would. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens `returnTo`, lands on sign-in, signs in with the e2e password and waits for the header. */
export async function signIn(page: Page, email: string, returnTo = "/", password = E2E_PASSWORD): Promise<void> {
  await page.goto(returnTo);
  await expect(page).toHaveURL(/\/sign-in/);
  await submitSignIn(page, email, password);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}
