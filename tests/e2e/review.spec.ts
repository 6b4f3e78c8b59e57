import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("a lead works the demo queue: redacts a secret and approves, approves by key, rejects, and sees the commit in history", async ({ page }) => {
  test.setTimeout(120_000); // four decisions, three of them commits to the store
  await signIn(page, "lena@acme.example", "/review");
  await expect(page.getByTestId("review-count")).toBeVisible();
  const queue = page.getByTestId("review-queue");
  await expect(queue.getByTestId("queue-row")).toHaveCount(5);
  await page.screenshot({ path: "test-results/screenshots/review-queue.png", fullPage: true });

  // A proposal carrying a credential: blocked, the value is never on the page, redaction fixes it.
  await queue.getByRole("link", { name: "PayFlow sandbox access" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText("blocked secret");
  await expect(page.getByTestId("secret-findings")).toBeVisible();
  expect(await page.content()).not.toMatch(/sk_test_[A-Za-z0-9]{12,}/);
  await page.screenshot({ path: "test-results/screenshots/review-secret.png", fullPage: true });
  await page.getByRole("button", { name: "Apply redaction" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText("in review");
  await expect(page.getByTestId("proposal-diff")).toContainText("[REDACTED:");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText("committed");
  await page.getByRole("link", { name: "See the memory and its history" }).click();
  await expect(page.getByText("Add reference memory: PayFlow sandbox access").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/review-committed-history.png", fullPage: true });

  // A clean project memory, approved with the keyboard.
  await page.goto("/review");
  await queue.getByRole("link", { name: "Checkout p95 alert at 500 ms" }).click();
  await expect(page.getByTestId("proposal-checks")).toContainText("No blockers");
  // Keys work once the page is hydrated; a key pressed before that is lost, as in any browser.
  await expect(page.locator('[aria-label="Actions"][data-shortcuts="ready"]')).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.getByTestId("proposal-state")).toHaveText("committed");

  // A personal memory cannot enter the team store: the lead rejects it with a reason.
  await page.goto("/review");
  await queue.getByRole("link", { name: "Prefers Go examples" }).click();
  await expect(page.getByTestId("proposal-checks")).toContainText("personal: stays private");
  await expect(page.getByRole("button", { name: "Approve" })).toBeDisabled();
  page.once("dialog", (dialog) => void dialog.accept("user memories stay private (T2)"));
  await page.getByRole("button", { name: "Reject…" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText("rejected");
  await expect(page.getByTestId("proposal-events")).toContainText("user memories stay private (T2)");

  // Feedback needs the lead to confirm it is a team convention before it can be approved.
  await page.goto("/review");
  await queue.getByRole("link", { name: "Contract tests before merging PayFlow changes" }).click();
  const approve = page.getByRole("button", { name: "Approve" });
  await expect(approve).toBeDisabled();
  await page.getByLabel("This feedback is a team convention").check();
  await approve.click();
  await expect(page.getByTestId("proposal-state")).toHaveText("committed");
});

test("a member sees the queue but cannot decide", async ({ page }) => {
  await signIn(page, "priya@acme.example", "/review");
  await page.getByTestId("review-queue").getByRole("link").first().click();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  // The key hint offers only what works for a member: moving through the queue.
  await expect(page.getByText("Keys:")).toContainText("next/previous");
  await expect(page.getByText("Keys:")).not.toContainText("approve");
});

test("a member proposes an edit from a team memory's page; it becomes a proposal, not a write", async ({ page }) => {
  await signIn(page, "omar@acme.example", "/memories/team/acme-checkout/reference_grafana_payflow.md");
  await page.getByRole("button", { name: "Propose an edit" }).click();
  const editor = page.getByLabel("The whole file, frontmatter included");
  await editor.fill((await editor.inputValue()).replace("tells PayFlow outages", "separates PayFlow outages"));
  // A double click submits once.
  const submissions: string[] = [];
  page.on("request", (request) => void (request.method() === "POST" && request.url().endsWith("/proposals") && submissions.push(request.url())));
  await page.getByRole("button", { name: "Submit for review" }).dblclick();
  await expect(page).toHaveURL(/\/review\//);
  expect(submissions).toHaveLength(1);
  await expect(page.getByTestId("proposal-state")).toHaveText("submitted");
  await expect(page.getByTestId("proposal-diff")).toContainText("separates PayFlow outages");
  await expect(page.getByText("edit of a team memory")).toBeVisible();
});
