import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { privateMemoryDir, teamMemoryDir } from "../../lib/memdir/paths";
import { signIn } from "./sign-in";

const PROJECT = "acme-checkout";

/** A member's machine: HOME with Claude Code's ~/.claude layout and a git checkout of the project. */
async function memberHome(root: string, name: string): Promise<{ home: string; checkout: string; teamDir: string }> {
  const home = path.join(root, name);
  const checkout = path.join(home, "src", "acme-checkout");
  await mkdir(checkout, { recursive: true });
  execFileSync("git", ["init", "-q", checkout]);
  execFileSync("git", ["-C", checkout, "remote", "add", "origin", "https://github.com/acme/checkout.git"]);
  return { home, checkout, teamDir: teamMemoryDir(privateMemoryDir(path.join(home, ".claude"), checkout)) };
}

/** The compiled `teammem`, as a member runs it. */
function teammem(args: string[], env: { home: string; cwd: string; server: string; token: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TEAMMEM_BIN, ...args], {
      cwd: env.cwd,
      env: { NODE_ENV: "test" as const, PATH: process.env.PATH ?? "", HOME: env.home, XDG_CONFIG_HOME: path.join(env.home, ".config"), TEAMMEM_SERVER: env.server, TEAMMEM_TOKEN: env.token },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("a member's team file goes through review in the dashboard; teammem sync on another machine brings it with the store commit's time as mtime", async ({ page, browser }) => {
  test.setTimeout(180_000);
  ensureCompiledCli();
  const root = await mkdtemp(path.join(os.tmpdir(), "teammem-e2e-sync-"));

  // Priya makes an API token for the project in her browser session.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signIn(member, "priya@acme.example", "/");
  const server = new URL(member.url()).origin;
  const created = await member.request.post("/api/tokens", { headers: { origin: server }, data: { name: "e2e sync", projectIds: [PROJECT] } });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = (await created.json()) as { token: string };

  // Her laptop: Claude Code wrote a team memory; teammem sync proposes it.
  const laptop = await memberHome(root, "laptop");
  await mkdir(laptop.teamDir, { recursive: true });
  await writeFile(path.join(laptop.teamDir, "project_e2e_sync_rollout.md"), "---\nname: Rollout windows\ndescription: Checkout deploys roll out between 09:00 and 15:00 UTC only\ntype: project\n---\nCheckout deploys roll out between 09:00 and 15:00 UTC.\n**Why:** support is staffed then.\n**How to apply:** schedule releases inside the window.\n");
  const proposed = await teammem(["sync", "--project", PROJECT, "--json"], { home: laptop.home, cwd: laptop.checkout, server, token });
  const report = JSON.parse(proposed.stdout) as { proposed: { path: string; proposalId: string | null }[] };
  expect(report.proposed, proposed.stderr).toMatchObject([{ path: "project_e2e_sync_rollout.md" }]);
  const proposalId = report.proposed[0]!.proposalId!;

  // Lena approves it in the dashboard, where the review page names where it came from.
  await signIn(page, "lena@acme.example", `/review/${proposalId}`);
  await expect(page.getByTestId("proposal-state")).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText("committed");

  // Her desktop, never synced: teammem sync brings the file, dated by the store commit.
  const desktop = await memberHome(root, "desktop");
  const pulled = await teammem(["sync", "--project", PROJECT], { home: desktop.home, cwd: desktop.checkout, server, token });
  expect(pulled.code, pulled.stderr + pulled.stdout).toBe(0);
  expect(pulled.stdout).toContain("project_e2e_sync_rollout.md");
  const file = path.join(desktop.teamDir, "project_e2e_sync_rollout.md");
  expect(await readFile(file, "utf8")).toContain("between 09:00 and 15:00 UTC");
  const answer = await member.request.get(`/api/projects/${PROJECT}/sync?pageSize=2000&peek=1`, { headers: { authorization: `Bearer ${token}` } });
  const files = ((await answer.json()) as { files: { path: string; changedAt: string }[] }).files;
  const changedAt = new Date(files.find((entry) => entry.path === "project_e2e_sync_rollout.md")!.changedAt);
  expect((await stat(file)).mtime.getTime()).toBe(changedAt.getTime());
  expect(Date.now() - changedAt.getTime()).toBeLessThan(10 * 60_000); // the approval's commit, not an old date
  await memberContext.close();
});
