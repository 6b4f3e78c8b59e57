import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("each page's title names it, so tabs and history tell pages apart", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page).toHaveTitle("Sign in · teammem");
  await signIn(page, "lena@acme.example", "/");
  const pages: [string, string][] = [
    ["/", "Overview · teammem"],
    ["/projects", "Projects · teammem"],
    ["/memories", "Memories · teammem"],
    ["/review", "Review · teammem"],
    ["/recall", "Recall · teammem"],
    ["/settings", "Settings · teammem"],
    ["/no-such-page", "Not found · teammem"],
  ];
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
});
