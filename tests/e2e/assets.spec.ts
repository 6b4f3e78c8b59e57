import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("the favicon is served without a session, and pages name it and the social image", async ({ page, request }) => {
  const favicon = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(favicon.status()).toBe(200);
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO file
  // Link previews fetch the social image without a session; the sign-in page shows the logo.
  const anonymousImage = await request.get("/brand/og.png", { maxRedirects: 0 });
  expect(anonymousImage.status()).toBe(200);
  expect((await request.get("/brand/logo.svg", { maxRedirects: 0 })).status()).toBe(200);

  await signIn(page, "lena@acme.example", "/");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /\/favicon\.ico/);
  const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(ogImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/brand\/og\.png$/);
  const image = await page.request.get(new URL(ogImage!).pathname);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
});

test("an unknown memory or proposal address answers 404; a real memory still 200", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/memories");
  const missing = await page.goto("/memories/team/acme-checkout/nope.md");
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("memory-not-found")).toBeVisible();

  const existing = await page.goto("/memories/team/acme-checkout/reference_grafana_payflow.md");
  expect(existing?.status()).toBe(200);
  await expect(page.getByTestId("agent-header")).toBeVisible();

  const noProposal = await page.goto("/review/no-such-proposal");
  expect(noProposal?.status()).toBe(404);
  await expect(page.getByTestId("proposal-not-found")).toBeVisible();
});

test("a project that does not exist, or that the user cannot see, answers 404 with a way back", async ({ page }) => {
  await signIn(page, "omar@acme.example", "/projects");
  const noProject = await page.goto("/projects/no-such-project");
  expect(noProject?.status()).toBe(404);
  await expect(page.getByTestId("project-not-found")).toContainText("no role in it");
  await expect(page.getByText("teammem doctor")).toHaveCount(0);
  await page.getByRole("link", { name: "Back to Projects" }).click();
  await expect(page).toHaveURL(/\/projects$/);

  const noMemories = await page.goto("/memories?project=no-such-project");
  expect(noMemories?.status()).toBe(404);
  await expect(page.getByTestId("memories-not-found")).toBeVisible();
  await expect(page.getByText("teammem doctor")).toHaveCount(0);

  // Private memory is the Claude home owner's (Omar's) only: for Lena it does not exist.
  await page.context().clearCookies();
  await signIn(page, "lena@acme.example", "/memories");
  expect((await page.goto("/memories?scope=private"))?.status()).toBe(404);
  await expect(page.getByTestId("memories-not-found")).toBeVisible();
});
