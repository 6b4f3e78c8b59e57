import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signIn } from "./sign-in";

// A project of its own, led by an account of its own, so the demo queue other specs count is untouched.
const RUN = Date.now().toString(36);
const PROJECT = `e2e-lead-${RUN}`;
const LEAD = `lead-${RUN}@e2e.example`;

const memory = (topic: string) =>
  `---\nname: Lead keys ${topic} ${RUN}\ndescription: Where the ${topic} runbook ${RUN} lives\ntype: reference\n---\nThe ${topic} runbook ${RUN} is in the wiki under Payments.\n`;

async function post(request: APIRequestContext, origin: string, url: string, data: unknown) {
  const response = await request.post(url, { headers: { origin }, data });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as { proposal: { id: string }; oneTimePassword: string };
}

let leadPassword = "";
let member: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  const admin = await browser.newPage();
  await signIn(admin, "admin@teammem.local", "/settings");
  const origin = new URL(admin.url()).origin;
  leadPassword = (await post(admin.request, origin, "/api/admin/users", { email: LEAD, name: `Lead ${RUN}` })).oneTimePassword;
  await post(admin.request, origin, "/api/projects", { id: PROJECT, name: `Lead keys ${RUN}`, leadEmail: LEAD });
  await post(admin.request, origin, `/api/projects/${PROJECT}/members`, { email: "omar@acme.example", role: "member" });
  await admin.close();
  member = await browser.newPage();
  await signIn(member, "omar@acme.example");
});

test.afterAll(async () => {
  await member?.close();
});

async function propose(topic: string): Promise<string> {
  return (await post(member.request, new URL(member.url()).origin, `/api/projects/${PROJECT}/proposals`, { path: `reference_${topic}_${RUN}.md`, content: memory(topic) })).proposal.id;
}

async function openAsLead(page: Page, path: string): Promise<void> {
  await signIn(page, LEAD, path, leadPassword);
}

test("pressing e opens the editor with the proposal's text, without typing an e into it", async ({ page }) => {
  const id = await propose("refunds");
  await openAsLead(page, `/review/${id}`);
  await expect(page.locator('[aria-label="Actions"][data-shortcuts="ready"]')).toBeVisible();
  await page.keyboard.press("e");
  const editor = page.getByLabel(/Content \(a new revision/);
  await expect(editor).toBeFocused();
  expect(await editor.inputValue()).toMatch(new RegExp(`^---\nname: Lead keys refunds ${RUN}\n`));
});

test("when the server cannot be reached, a review action says so and what to do", async ({ page }) => {
  const id = await propose("outage");
  await openAsLead(page, `/review/${id}`);
  await expect(page.locator('[aria-label="Actions"][data-shortcuts="ready"]')).toBeVisible();
  await page.route("**/api/**", (route) => route.abort("connectionrefused"));
  // The page's own requests are refused before the key is pressed (once a rejection went through).
  await expect.poll(() => page.evaluate(() => fetch("/api/me").then(() => "answered", () => "refused"))).toBe("refused");
  page.once("dialog", (dialog) => void dialog.accept("not needed"));
  await page.keyboard.press("r");
  const alert = page.getByRole("alert").filter({ hasText: "Could not reach the teammem server" });
  await expect(alert).toContainText("try again");
  await expect(page.locator("main")).not.toContainText("Failed to fetch");
});

test("Approve all clean leaves out what the only lead rewrote, and names each proposal it could not approve", async ({ page }) => {
  const rewritten = await propose("ledger");
  const withdrawn = await propose("payouts");
  await openAsLead(page, `/review/${rewritten}`);
  const origin = new URL(page.url()).origin;
  await post(page.request, origin, `/api/projects/${PROJECT}/proposals/${rewritten}/revise`, { content: memory("ledger").replace("in the wiki", "in the ops wiki"), note: "clarified" });

  await page.goto(`/review?project=${PROJECT}`);
  const bulk = page.getByTestId("bulk-approve");
  // Her own revision is not offered; the member's untouched proposals are.
  let offered = "";
  page.once("dialog", (dialog) => {
    offered = dialog.message();
    void dialog.accept();
  });
  await expect(bulk).toBeVisible();
  // The member withdraws one after the page listed it: the bulk answer refuses it, and the page says so.
  await post(member.request, new URL(member.url()).origin, `/api/projects/${PROJECT}/proposals/${withdrawn}/withdraw`, {});
  await bulk.getByRole("button", { name: "Approve all clean" }).click();
  await expect(page.getByTestId("bulk-approve-refusals")).toContainText(`Lead keys payouts ${RUN}`);
  expect(offered).toContain(`Lead keys payouts ${RUN}`);
  expect(offered).not.toContain(`Lead keys ledger ${RUN}`);
});

test("on a decided proposal the keys decide nothing, and a held-down a approves once", async ({ page }) => {
  // A text of its own: committed, a memory like the others' would make them near-duplicates, not clean.
  const content = `---\nname: Dispute evidence window ${RUN}\ndescription: Chargeback disputes need evidence uploaded within seven days ${RUN}\ntype: project\n---\nUpload evidence for disputes within seven days.\n**Why:** late uploads lose by default.\n**How to apply:** every chargeback.\n`;
  const id = (await post(member.request, new URL(member.url()).origin, `/api/projects/${PROJECT}/proposals`, { path: `project_disputes_${RUN}.md`, content })).proposal.id;
  await openAsLead(page, `/review/${id}`);
  await expect(page.locator('[aria-label="Actions"][data-shortcuts="ready"]')).toBeVisible();
  const approvals: string[] = [];
  page.on("request", (request) => void (request.url().endsWith("/approve") && approvals.push(request.url())));
  await page.keyboard.press("a");
  await page.keyboard.press("a");
  await page.keyboard.press("a");
  await expect(page.getByTestId("proposal-state")).toHaveText("committed");
  expect(approvals).toHaveLength(1);
  // Committed: no a, r or e in the hint, and pressing them asks nothing.
  await expect(page.locator('[aria-label="Actions"][data-shortcuts="ready"]')).toBeVisible();
  await expect(page.getByText("Keys:")).not.toContainText("approve");
  let asked = false;
  page.once("dialog", (dialog) => void ((asked = true), dialog.dismiss()));
  await page.keyboard.press("r");
  await page.keyboard.press("e");
  await expect(page.getByLabel(/Content \(a new revision/)).toHaveCount(0);
  expect(asked).toBe(false);
});
