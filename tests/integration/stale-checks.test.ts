import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listCodeRenames } from "../../lib/code-repo/read-code-repo";
import { scanMemoryDir } from "../../lib/memdir/scan-memory-dir";
import { checkMemoryDir } from "../../lib/stale/check-memory-dir";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const NOW = new Date("2026-12-01T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

function git(dir: string, args: string[], date = "2026-10-02T10:00:00Z"): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com", GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
}

async function put(dir: string, file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), content);
}

/** A code repository with a move, a deletion, a renamed symbol, a symbol that moved files, a binary file and a symlink. */
async function buildCodeRepo(): Promise<{ dir: string; moveCommit: string }> {
  const dir = await tempDir("teammem-code-");
  git(dir, ["init", "-q", "--initial-branch=main"]);
  await put(dir, "src/payments/ledger.go", "package payments\n\nfunc PostEntry() {}\n// a long enough body so rename detection is sure\n".repeat(3));
  await put(dir, "src/old/removed.ts", "export const gone = 1;\n");
  await put(dir, "lib/util.ts", "export function parseThing() {}\nexport function helperFn() {}\nconst $rootScope = 1;\n");
  await put(dir, "assets/logo.bin", Buffer.from([0, 1, 2, 0x42, 0x69, 0x6e, 0, 0xff, ...Buffer.from("BinaryOnlyTerm")]));
  await symlink("lib/util.ts", path.join(dir, "util-link.ts"));
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "first"], "2026-09-01T10:00:00Z");
  await mkdir(path.join(dir, "src/ledger"), { recursive: true });
  git(dir, ["mv", "src/payments/ledger.go", "src/ledger/ledger.go"]);
  git(dir, ["rm", "-q", "src/old/removed.ts"]);
  await put(dir, "lib/util.ts", "export function parseThingV2() {}\nconst $rootScope = 1;\n");
  await put(dir, "lib/helpers.ts", "export function helperFn() {}\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "move the ledger, drop removed.ts, rename parseThing"]);
  return { dir, moveCommit: git(dir, ["rev-parse", "HEAD"]).trim() };
}

function memory(type: string, name: string, body: string, description = `About ${name}`): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n${body}\n`;
}

async function writeMemory(dir: string, file: string, text: string, ageDays: number): Promise<void> {
  await put(dir, file, text);
  const mtime = new Date(NOW.getTime() - ageDays * DAY);
  await utimes(path.join(dir, file), mtime, mtime);
}

describe("staleness checks against a code repository", () => {
  it("finds every code signal with its evidence, and leaves what still holds alone", async () => {
    const { dir: repo, moveCommit } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "ledger.md", memory("reference", "Ledger", "Entries are posted in src/payments/ledger.go:42 by the nightly job."), 3);
    await writeMemory(memories, "removed.md", memory("reference", "Removed", "Run this:\n\n```\nnode src/old/removed.ts --all\n```"), 3);
    await writeMemory(memories, "renamed.md", memory("reference", "Parser", "Call `parseThing()` before saving."), 3);
    await writeMemory(memories, "moved-symbol.md", memory("reference", "Helper", "`helperFn` in lib/util.ts does the work."), 3);
    await writeMemory(memories, "special.md", memory("reference", "Scope", "`$rootScope` is global; `Foo$Bar` is not there; `a.*b` is not a name."), 3);
    await writeMemory(memories, "binary-and-link.md", memory("reference", "Assets", "`BinaryOnlyTerm` lives in assets/logo.bin; util-link.ts and `util-link.ts` are links."), 3);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(report.codeCommit).toBe(moveCommit);

    const ledger = byFile.get("ledger.md")!;
    expect(ledger.state).toBe("stale");
    expect(ledger.signals).toEqual([expect.objectContaining({ kind: "moved-path", evidence: expect.objectContaining({ path: "src/payments/ledger.go", line: 42, movedTo: "src/ledger/ledger.go", commit: moveCommit }) })]);
    expect(ledger.signals[0]!.message).toBe(`\`src/payments/ledger.go:42\` moved to \`src/ledger/ledger.go\` in ${moveCommit.slice(0, 7)} on 2026-10-02.`);

    expect(byFile.get("removed.md")!.signals).toEqual([expect.objectContaining({ kind: "missing-path", evidence: expect.objectContaining({ path: "src/old/removed.ts" }) })]);
    expect(byFile.get("renamed.md")!.signals).toEqual([expect.objectContaining({ kind: "missing-symbol", evidence: expect.objectContaining({ symbol: "parseThing" }) })]);

    const moved = byFile.get("moved-symbol.md")!;
    expect(moved.state).toBe("fresh");
    expect(moved.notes).toEqual(["`helperFn` now lives in `lib/helpers.ts`."]);

    const special = byFile.get("special.md")!;
    expect(special.signals.map((signal) => signal.evidence?.symbol)).toEqual(["Foo$Bar"]);

    // The binary file's bytes are not searched; the file and the symlink exist as paths.
    const assets = byFile.get("binary-and-link.md")!;
    expect(assets.signals.map((signal) => `${signal.kind}:${String(signal.evidence?.symbol ?? signal.evidence?.path)}`)).toEqual(["missing-symbol:BinaryOnlyTerm"]);
  });

  it("a path git ignores is never missing: build output, .env and dependencies get a note, a deleted file still a signal", async () => {
    const { dir: repo } = await buildCodeRepo();
    await put(repo, ".gitignore", "/dist/\n.env\nnode_modules\n");
    await put(repo, "web/.gitignore", "coverage/\n");
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "ignore build output"]);
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "ignored.md", memory("feedback", "Build", "Never commit the `.env` file; the build writes to `dist/` and `dist/app.js`; don't patch `node_modules/left-pad/index.js`; coverage lands in `web/coverage/lcov.info`."), 3);
    await writeMemory(memories, "mixed.md", memory("reference", "Old", "`dist/app.js` is built from src/old/removed.ts, and `coverage/lcov.info` is not web's."), 3);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(byFile.get("ignored.md")!).toMatchObject({ state: "fresh", signals: [] });
    expect(byFile.get("ignored.md")!.notes).toContain("`.env` is ignored by the code repository's .gitignore, so git never holds it: not checked.");
    // A deleted file is still missing; web/'s rules do not reach a path outside web/.
    expect(byFile.get("mixed.md")!.signals.map((signal) => `${signal.kind}:${String(signal.evidence?.path)}`).sort()).toEqual(["missing-path:coverage/lcov.info", "missing-path:src/old/removed.ts"]);
  });

  it("host names, e-mail addresses and product names in backticks are not missing symbols; missing code beside them still is", async () => {
    const { dir: repo } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "hosts.md", memory("reference", "Payment hosts", "`parseThingV2()` calls `api.stripe.com`; failures page `payments-oncall@acme.example`."), 3);
    await writeMemory(memories, "stack.md", memory("reference", "Stack", "`parseThingV2()` writes to `PostgreSQL`; CI runs on `GitHub` Actions, developers use `macOS`."), 3);
    await writeMemory(memories, "gone.md", memory("reference", "Ledger", "`LedgerService.post`, `snake_case_name` and `parseThing` talk to `api.stripe.com` on `macOS`."), 3);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(byFile.get("hosts.md")!).toMatchObject({ state: "fresh", signals: [] });
    expect(byFile.get("stack.md")!).toMatchObject({ state: "fresh", signals: [] });
    expect(byFile.get("gone.md")!.state).toBe("stale");
    expect(byFile.get("gone.md")!.signals.map((signal) => `${signal.kind}:${String(signal.evidence?.symbol)}`).sort()).toEqual(["missing-symbol:parseThing", "missing-symbol:post", "missing-symbol:snake_case_name"]);
  });

  it("a moved file's evidence has the rename's time as git gives it, with nothing after it", async () => {
    const { dir: repo, moveCommit } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "ledger.md", memory("reference", "Ledger", "Entries are posted in src/payments/ledger.go."), 3);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    expect(report.memories[0]!.signals[0]!.evidence).toEqual({ path: "src/payments/ledger.go", movedTo: "src/ledger/ledger.go", commit: moveCommit, at: "2026-10-02T10:00:00+00:00" });
  });

  it("reads every rename of git's NUL-separated log, whatever characters the file names hold", async () => {
    const repo = await tempDir("teammem-code-");
    git(repo, ["init", "-q", "--initial-branch=main"]);
    await put(repo, "src/a\x01b.ts", "export const a = 1;\n");
    await put(repo, "src/x\ny.ts", "export const y = 2;\n");
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "first"], "2026-09-01T10:00:00Z");
    git(repo, ["mv", "src/a\x01b.ts", "src/ab.ts"]);
    git(repo, ["mv", "src/x\ny.ts", "src/\nz.ts"]);
    git(repo, ["commit", "-q", "-m", "rename both"]);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    const renames = await listCodeRenames(repo, head);
    const at = "2026-10-02T10:00:00+00:00";
    expect(renames).toEqual(expect.arrayContaining([{ from: "src/a\x01b.ts", to: "src/ab.ts", commit: head, at }, { from: "src/x\ny.ts", to: "src/\nz.ts", commit: head, at }]));
    expect(renames).toHaveLength(2);
  });

  it("dates: a passed deadline and an old relative date are flagged, a future one is not; a durable feedback rule is not old", async () => {
    const { dir: repo } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "freeze.md", memory("project", "Freeze", "Merge freeze until 2026-11-20 for the release."), 5);
    await writeMemory(memories, "future.md", memory("project", "Launch", "The launch starts on 2027-03-01; plan around it."), 5);
    await writeMemory(memories, "relative.md", memory("project", "Demo", "The demo is next Thursday."), 10);
    await writeMemory(memories, "relative-new.md", memory("project", "Retro venue", "Retrospectives happen in room 4B from next Thursday on.", "Where retrospectives are held"), 2);
    await writeMemory(memories, "rule.md", memory("feedback", "No force push", "Never force-push main.\n**Why:** it lost work once.\n**How to apply:** always."), 400);
    await writeMemory(memories, "sprint.md", memory("project", "Sprint goal", "The sprint aims at the checkout rewrite."), 60);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(byFile.get("freeze.md")!.signals).toEqual([expect.objectContaining({ kind: "past-date", evidence: expect.objectContaining({ date: "2026-11-20" }) })]);
    expect(byFile.get("future.md")!.signals).toEqual([]);
    expect(byFile.get("relative.md")!.signals).toEqual([expect.objectContaining({ kind: "past-date", evidence: expect.objectContaining({ kind: "relative", phrase: "next Thursday" }) })]);
    expect(byFile.get("relative-new.md")!.signals).toEqual([]);
    expect(byFile.get("rule.md")!).toMatchObject({ state: "fresh", signals: [] });
    expect(byFile.get("sprint.md")!.signals).toEqual([expect.objectContaining({ kind: "old", evidence: { ageDays: 60, oldAfterDays: 30 } })]);
    expect(byFile.get("sprint.md")!.state).toBe("stale");
  });

  it("dates: a deadline still ahead is not flagged because another, past date shares its line or a URL holds a date", async () => {
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "freeze.md", memory("project", "Release freeze", "The freeze starts 2027-01-30 (announced on 2026-11-01)."), 5);
    await writeMemory(memories, "deadline.md", memory("project", "Migration deadline", "The ledger migration deadline moved from 2026-11-01 to 2027-03-01."), 5);
    await writeMemory(memories, "wiki.md", memory("project", "Freeze notes", "Notes: https://wiki.example.com/2026-11-20/until-2026-11-21 (the freeze plan)."), 5);
    await writeMemory(memories, "passed.md", memory("project", "Old deadline", "The deadline moved from 2026-10-01 to 2026-11-15 (announced on 2026-09-20)."), 5);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    for (const file of ["freeze.md", "deadline.md", "wiki.md"]) expect(byFile.get(file)!).toMatchObject({ state: "fresh", signals: [] });
    // A moved deadline whose new date has passed is still found, and named by that date.
    expect(byFile.get("passed.md")!.state).toBe("stale");
    expect(byFile.get("passed.md")!.signals.map((signal) => signal.message)).toEqual(['"deadline moved from 2026-10-01 to 2026-11-15" (line 6) has passed.']);
  });

  it("a passed date is reported on its line of the file, frontmatter counted, as lint numbers lines", async () => {
    const memories = await tempDir("teammem-mem-");
    // Line 3 is the description, line 6 the body's first; "next Thursday" is on line 9.
    await writeMemory(memories, "body.md", memory("project", "Freeze", "Line six.\nLine seven.\nLine eight.\nThe freeze lasts until 2026-11-20, the demo is next Thursday."), 10);
    await writeMemory(memories, "description.md", memory("project", "Freeze", "Nothing dated here.", "Release freeze until 2026-11-20 for payments"), 10);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    const lines = (file: string) => byFile.get(file)!.signals.map((signal) => [signal.evidence?.line, signal.message.match(/\(line (\d+)\)/)?.[1]]);
    expect(lines("body.md")).toEqual([[9, "9"], [9, "9"]]);
    expect(lines("description.md")).toEqual([[3, "3"]]);
  });

  it("an older near-duplicate of a newer memory is flagged; the newer one is not", async () => {
    const memories = await tempDir("teammem-mem-");
    const body = "Deploys go out from the release branch after the staging soak passes and the on-call lead signs off.";
    await writeMemory(memories, "deploy-old.md", memory("reference", "Deploy process", body, "How deploys go out from the release branch"), 20);
    await writeMemory(memories, "deploy-new.md", memory("reference", "Deploy process", `${body} `, "How deploys go out from the release branch"), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(byFile.get("deploy-old.md")!.signals).toEqual([expect.objectContaining({ kind: "duplicate", evidence: expect.objectContaining({ path: "deploy-new.md" }) })]);
    expect(byFile.get("deploy-new.md")!.signals).toEqual([]);
  });

  it("an unreachable or non-git repository is 'not checked', never fresh, for a memory that cites code", async () => {
    const memories = await tempDir("teammem-mem-");
    const notGit = await tempDir("teammem-notgit-");
    await writeMemory(memories, "cites.md", memory("reference", "Ledger", "See src/ledger/ledger.go."), 1);
    await writeMemory(memories, "plain.md", memory("reference", "Wiki", "The wiki has the runbooks."), 1);
    for (const codeRepo of [notGit, path.join(notGit, "missing")]) {
      const report = await checkMemoryDir({ memoryDir: memories, codeRepo, now: NOW });
      expect(report.codeCommit).toBeNull();
      expect(report.codeRepoProblem).toMatch(/not a git repository|not a folder/);
      const cites = report.memories.find((entry) => entry.file === "cites.md")!;
      expect(cites.state).toBe("aging");
      expect(cites.notChecked).toContainEqual(expect.stringMatching(/^not checked: 1 code citation \(/));
      expect(report.memories.find((entry) => entry.file === "plain.md")!.state).toBe("fresh");
    }
  });

  it("runs nothing a hostile repository configures (fsmonitor, external diff, pager, hooks)", async () => {
    const { dir: repo } = await buildCodeRepo();
    const marker = path.join(await tempDir("teammem-marker-"), "ran");
    const command = `touch ${marker}`;
    for (const [key, value] of [["core.fsmonitor", command], ["diff.external", command], ["core.pager", command], ["core.hooksPath", path.dirname(marker)]]) git(repo, ["config", key!, value!]);
    await put(path.dirname(marker), "post-checkout", `#!/bin/sh\n${command}\n`);
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "ledger.md", memory("reference", "Ledger", "See src/payments/ledger.go and `parseThing()`."), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    expect(report.memories[0]!.signals.map((signal) => signal.kind)).toEqual(["moved-path", "missing-symbol"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("never carries a credential from a memory into a signal", async () => {
    const { dir: repo } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    await writeMemory(memories, "leak.md", memory("project", "Leak", `Use \`${token}\` until 2026-11-20 ${token} for the bot.`), 2);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const text = JSON.stringify(report);
    expect(text).not.toContain(token);
    expect(report.memories[0]!.signals.map((signal) => signal.kind)).toContain("past-date");
  });

  it("never prints a credential in a file's name or a memory's name (as lint and manifest mask them)", async () => {
    const memories = await tempDir("teammem-mem-");
    const token = "ghp_" + "Zq9Yx8Wv7Ut6Sr5Qp4On3Ml2Kj1Ih0Gf9Ed8";
    await writeMemory(memories, `reference_${token}.md`, memory("reference", `Bot ${token}`, "Where the deploy bot's settings live."), 2);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    expect(report.memories).toHaveLength(1);
    expect(report.memories[0]!.file).toMatch(/^reference_\[REDACTED:/);
    expect(JSON.stringify(report)).not.toContain(token.slice(4, 30));
  });

  it("a memory over 100 KB written as one line is checked up to its last word within the limit, not skipped", async () => {
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "one-line.md", memory("project", "Notes", `Merge freeze until 2026-11-20. ${"the export job writes notes ".repeat(5_000)}`), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    const [entry] = report.memories;
    expect(entry!.signals).toEqual([expect.objectContaining({ kind: "past-date", evidence: expect.objectContaining({ date: "2026-11-20" }) })]);
    expect(entry!.notChecked).toContain("not checked: the text past the first 100 KB");
  });

  it("a memory holding one 6 MB line is checked up to the store's 100 KB limit and says so; the others as usual (S2, S3)", async () => {
    const memories = await tempDir("teammem-mem-");
    await writeMemory(memories, "blob.md", memory("project", "Export", `Merge freeze until 2026-11-20.\n${"z".repeat(6 * 1024 * 1024)}`), 1);
    await writeMemory(memories, "plain.md", memory("reference", "Wiki", "The wiki has the runbooks."), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    const blob = byFile.get("blob.md")!;
    expect(blob).toMatchObject({ name: "Export", type: "project", signals: [expect.objectContaining({ kind: "past-date", evidence: expect.objectContaining({ date: "2026-11-20" }) })] });
    expect(blob.notChecked).toContain("not checked: the text past the first 100 KB");
    expect(byFile.get("plain.md")).toMatchObject({ state: "fresh", notChecked: ["not checked: recall history (no recall log here)"] });
  });

  it("a memory over 100 KB whose checked part holds nothing wrong is aging, not fresh: its unread tail may cite a missing file", async () => {
    const { dir: repo } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    const filler = "The ledger posts entries nightly.\n".repeat(4_000);
    await writeMemory(memories, "long.md", memory("reference", "Long", `${filler}See src/old/removed.ts for the importer.`), 1);
    await writeMemory(memories, "short.md", memory("reference", "Short", "The ledger posts entries nightly."), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const byFile = new Map(report.memories.map((entry) => [entry.file, entry]));
    expect(byFile.get("long.md")).toMatchObject({ state: "aging", signals: [] });
    expect(byFile.get("long.md")!.notChecked).toContain("not checked: the text past the first 100 KB");
    expect(byFile.get("short.md")).toMatchObject({ state: "fresh", signals: [] });
  });

  it("a frontmatter closing after line 30 gives no name, type or description, as a scan reads it (C4)", async () => {
    const memories = await tempDir("teammem-mem-");
    const head = ["---", "name: Late close", "description: Merge freeze until 2026-11-20 on checkout", "type: project"];
    while (head.length < 30) head.push(`extra${head.length}: value`);
    await writeMemory(memories, "late.md", `${head.join("\n")}\n---\nThe checkout retries payments twice.\n`, 40);
    const [scanned] = (await scanMemoryDir(memories)).memories;
    expect(scanned).toMatchObject({ name: null, type: null, description: null });
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: null, now: NOW });
    // Untyped: not old at 40 days (a project memory would be), and the description's date is not read.
    expect(report.memories[0]).toMatchObject({ name: null, type: null, state: "fresh", signals: [] });
  });

  it("a memory citing thousands of paths is checked for the first 200, says so, and costs one batch", async () => {
    const { dir: repo } = await buildCodeRepo();
    const memories = await tempDir("teammem-mem-");
    const lines = Array.from({ length: 3_000 }, (_, index) => `- src/generated/file${index}.ts`).join("\n");
    await writeMemory(memories, "many.md", memory("reference", "Generated", lines), 1);
    const report = await checkMemoryDir({ memoryDir: memories, codeRepo: repo, now: NOW });
    const many = report.memories[0]!;
    expect(many.signals.filter((signal) => signal.kind === "missing-path")).toHaveLength(200);
    expect(many.notChecked).toContain("not checked: citations past the first 200 of a kind");
  });
});
