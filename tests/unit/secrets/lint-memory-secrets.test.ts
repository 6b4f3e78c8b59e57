import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintMemorySecrets } from "@/lib/secrets/lint-memory-secrets";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();

// Generated at test time: no live-format token is committed to the repository.
function fakeGithubToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let body = "";
  for (let index = 0; index < 36; index++) body += alphabet[(index * 7 + 13) % alphabet.length];
  return `ghp_${body}`;
}

describe("lintMemorySecrets", () => {
  it("reports one secret error per credential (T3), in the body, the frontmatter and team/, without the value", async () => {
    const dir = await tempDir();
    const token = fakeGithubToken();
    await mkdir(path.join(dir, "team"));
    await writeFile(path.join(dir, "reference_ci.md"), `---\nname: CI\ndescription: CI token is ${token}\ntype: reference\n---\nSee the wiki.\n`);
    await writeFile(path.join(dir, "team", "project_db.md"), "---\nname: DB\ndescription: Staging database\ntype: project\n---\nConnect with postgres://app:Zq8-vR2pL7xW@staging.internal:5432/app\n");
    await writeFile(path.join(dir, "feedback_clean.md"), "---\nname: Clean\ndescription: Nothing secret here at all\ntype: feedback\n---\nUse commit 1f3a9c2e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 as the baseline.\n");

    const findings = await lintMemorySecrets(dir);
    expect(findings.map((finding) => [finding.file, finding.rule, finding.severity, finding.line]).sort()).toEqual([
      ["reference_ci.md", "secret", "error", 3],
      ["team/project_db.md", "secret", "error", 6],
    ]);
    const text = JSON.stringify(findings);
    expect(text).not.toContain(token);
    expect(text).not.toContain("Zq8-vR2pL7xW");
  });

  it("the fix names the command to run, unless the file's own name holds a credential: then it says to rename the file first", async () => {
    const dir = await tempDir();
    const body = "---\nname: DB\ndescription: Staging database\ntype: project\n---\nConnect with postgres://app:Zq8-vR2pL7xW@staging.internal:5432/app\n";
    await writeFile(path.join(dir, "project_db.md"), body);
    await writeFile(path.join(dir, `reference_${fakeGithubToken()}.md`), body);
    const fixes = new Map((await lintMemorySecrets(dir)).map((finding) => [finding.file.startsWith("reference_") ? "named" : "plain", finding.fix]));
    expect(fixes.get("plain")).toContain("run `teammem secrets project_db.md --redact --write`");
    expect(fixes.get("named")).toContain("rename the file after its topic, then run `teammem secrets NEW_NAME --redact --write`");
  });

  it("an empty or missing directory has no findings", async () => {
    expect(await lintMemorySecrets(path.join(await tempDir(), "nope"))).toEqual([]);
  });
});
