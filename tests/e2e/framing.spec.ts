import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("no page can be framed by another site: a framed review page shows nothing to click", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/review");
  for (const path of ["/review", "/sign-in", "/api/me", "/no-such-page"]) {
    const answer = await page.request.get(path, { maxRedirects: 0 });
    expect(answer.headers()["x-frame-options"], path).toBe("DENY");
    expect(answer.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
  }

  // A hostile page on another origin frames the review queue of the signed-in lead.
  const reviewUrl = new URL("/review", page.url()).href;
  await page.route("http://hostile.test/**", (route) =>
    route.fulfill({ contentType: "text/html", body: `<h1>Win a prize</h1><iframe src="${reviewUrl}" width="1200" height="900"></iframe>` }),
  );
  await page.goto("http://hostile.test/");
  await page.waitForTimeout(1_000);
  const framed = page.frames().find((frame) => frame !== page.mainFrame());
  expect(await framed?.getByTestId("review-queue").count()).toBe(0);
});

test("an address with a malformed %-escape gets a 400 that says so, JSON under /api, and the server serves on", async ({ page }) => {
  await signIn(page, "lena@acme.example", "/review");
  for (const path of ["/api/projects/%FF", "/api/projects/acme-checkout/proposals/%E0%A4", "/api/tokens/%", "/api/no-such-route/%C0%AE"]) {
    const answer = await page.request.get(path);
    expect(answer.status(), path).toBe(400);
    expect(await answer.json(), path).toEqual({ error: { code: "INVALID_INPUT", message: expect.stringContaining("malformed %-escape") } });
  }
  const pageAnswer = await page.request.get("/projects/%FF");
  expect(pageAnswer.status()).toBe(400);
  expect(await pageAnswer.text()).toContain("malformed %-escape");
  // Well-formed escapes still reach the app, and the API answers as before.
  expect((await page.request.get("/api/projects/no%20such")).status()).toBe(404);
  expect((await page.request.get("/api/me")).status()).toBe(200);
});
