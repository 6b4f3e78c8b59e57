import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";

// The CLI run for real on a generated memory directory: 2,000 valid memories plus every hostile
// file the issue names. The directory is built once; tests that write work on a copy. Tests run
// one after another: each CLI call is a Node process, and on two cores running them side by
// side only makes them fight.

// What users run: the compiled CLI (built here when missing or older than its sources).
const cli = TEAMMEM_BIN;
beforeAll(ensureCompiledCli);
const TYPES = ["user", "feedback", "project", "reference"] as const;
const MEMORY_COUNT = 2_000;
const BASE_TIME = Date.parse("2025-01-01T00:00:00.000Z");
const HOSTILE_TIME = new Date("2024-06-01T08:00:00.000Z");
/** Newer than every generated memory, so the manifest's first line shows C6's "no description" form. */
const NO_DESCRIPTION_TIME = new Date("2030-01-01T00:00:00.123Z");
const ORPHANS = [5, 6, 1001];
const TEAM_ORPHAN = 40;

type Generated = { index: number; file: string; type: (typeof TYPES)[number]; description: string; mtime: Date };
type ScanJson = { dir: string; total: number; memories: { file: string; type: string | null; name: string | null; description: string | null; mtime: string }[]; skipped: { file: string; reason: string }[] };
type Finding = { file: string; rule: string; severity: string; message: string; fix?: string };
type CheckJson = { lines: number; bytes: number; lineTruncated: boolean; byteTruncated: boolean; loadedLines: number; entriesOutsideWindow: { line: number; file: string }[]; loaded: string; dangling: { line: number; file: string }[]; orphans: string[] };

let workDir: string;
let memoryDir: string;
const generated: Generated[] = [];
let rootIndex: string;
let teamIndex: string;

/** Every memory file among the hostile ones (the two symlinks are skipped, not memories). */
const HOSTILE: Record<string, string | Buffer> = {
  "no-frontmatter.md": "Just a note someone typed without any frontmatter.\n",
  "unclosed-frontmatter.md": `---\nname: Unclosed\ndescription: the closing line never comes\n${"more: text\n".repeat(40)}`,
  "bad-yaml.md": "---\nname: [unclosed\n  - : :\n\t- bad\n---\nBody\n",
  "alias-bomb.md": `---\ndescription: bomb\n${aliasBomb()}\n---\nBody\n`,
  "empty.md": "",
  "binary.md": Buffer.from(Array.from({ length: 4096 }, (_, byte) => byte % 256)),
  "huge.md": `---\nname: Huge\ndescription: Load test fixture pasted whole into a memory by mistake\ntype: reference\n---\n${"x".repeat(99)}\n`.padEnd(6 * 1024 * 1024, `${"y".repeat(99)}\n`),
  "bom-crlf.md": "\uFEFF---\r\nname: Windows\r\ndescription: Saved by a Windows editor with a byte order mark and CRLF\r\ntype: user\r\n---\r\nBody\r\n",
  "unknown-type.md": "---\nname: Opinion\ndescription: The team prefers tabs over spaces in Makefiles\ntype: opinion\n---\nBody\n",
  "missing-description.md": "---\nname: No description\ntype: user\n---\nBody\n",
  "vague.md": "---\nname: Vague\ndescription: user preferences\ntype: user\n---\nBody\n",
  "feedback-without-why.md": "---\nname: Terse\ndescription: User wants answers without a closing summary paragraph\ntype: feedback\n---\nNo summaries.\n",
  "relative-date.md": "---\nname: Freeze\ndescription: Merge freeze on the mobile release branch for non-urgent PRs\ntype: project\n---\nFreeze until next Thursday.\n**Why:** release cut.\n**How to apply:** hold PRs.\n",
  "derivable.md": "---\nname: Retry\ndescription: Upload retries are capped so the queue never stalls\ntype: reference\n---\nSee src/upload/retry.ts:42 for the cap.\n",
};

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), "teammem-cli-memdir-"));
  memoryDir = path.join(workDir, "memory");
  const outside = path.join(workDir, "outside");
  await put(path.join(outside, "secret.md"), "---\ndescription: must never be read through the link\n---\n");
  await put(path.join(outside, "folder", "inner.md"), "---\ndescription: must never be scanned\n---\n");
  for (let index = 0; index < MEMORY_COUNT; index++) generated.push(describeMemory(index));
  // Sequential batches keep file descriptors in check; the whole build takes about a second.
  for (let start = 0; start < generated.length; start += 200) {
    await Promise.all(generated.slice(start, start + 200).map(async (memory) => {
      const fullPath = path.join(memoryDir, memory.file);
      await put(fullPath, memoryText(memory));
      await utimes(fullPath, memory.mtime, memory.mtime);
    }));
  }
  for (const [file, content] of Object.entries(HOSTILE)) {
    await put(path.join(memoryDir, file), content);
    const time = file === "missing-description.md" ? NO_DESCRIPTION_TIME : HOSTILE_TIME;
    await utimes(path.join(memoryDir, file), time, time);
  }
  await symlink(path.join(outside, "secret.md"), path.join(memoryDir, "escape-file.md"));
  await symlink(path.join(outside, "folder"), path.join(memoryDir, "escape-folder"));
  rootIndex = buildRootIndex();
  teamIndex = buildTeamIndex();
  await writeFile(path.join(memoryDir, "MEMORY.md"), rootIndex);
  await writeFile(path.join(memoryDir, "team", "MEMORY.md"), teamIndex);
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe("teammem scan", () => {
  it("S1-S4: counts every memory, keeps the newest 200 newest first, and reports escaping symlinks", async () => {
    const result = await teammem(["scan", memoryDir, "--json"]);
    expect(result.code).toBe(0);
    const scan = JSON.parse(result.stdout) as ScanJson;
    expect(scan.dir).toBe(memoryDir);
    expect(scan.total).toBe(MEMORY_COUNT + Object.keys(HOSTILE).length);
    const newest = [...generated].sort((a, b) => b.mtime.getTime() - a.mtime.getTime()).slice(0, 199);
    expect(scan.memories.map((memory) => memory.file)).toEqual(["missing-description.md", ...newest.map((memory) => memory.file)]);
    expect(scan.memories[1]).toEqual({ file: newest[0]!.file, type: newest[0]!.type, name: `Memory ${newest[0]!.index}`, description: newest[0]!.description, mtime: newest[0]!.mtime.toISOString() });
    expect(scan.memories[0]).toMatchObject({ type: "user", description: null, mtime: "2030-01-01T00:00:00.123Z" });
    expect(scan.skipped).toEqual([
      { file: "escape-file.md", reason: "symlink-escape" },
      { file: "escape-folder", reason: "symlink-escape" },
    ]);
  });

  it("--all lists every memory, newest first, hostile files included and nothing behind the symlinks", async () => {
    const scan = JSON.parse((await teammem(["scan", memoryDir, "--all", "--json"])).stdout) as ScanJson;
    expect(scan.memories).toHaveLength(scan.total);
    const times = scan.memories.map((memory) => Date.parse(memory.mtime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(scan.memories.some((memory) => memory.file.startsWith("escape-"))).toBe(false);
    const byFile = new Map(scan.memories.map((memory) => [memory.file, memory]));
    // C4: BOM and CRLF are tolerated; S2: a 6 MB file is read like any other.
    expect(byFile.get("bom-crlf.md")).toMatchObject({ type: "user", description: "Saved by a Windows editor with a byte order mark and CRLF" });
    expect(byFile.get("huge.md")).toMatchObject({ type: "reference", name: "Huge" });
    for (const broken of ["no-frontmatter.md", "unclosed-frontmatter.md", "bad-yaml.md", "alias-bomb.md", "empty.md", "binary.md"]) {
      expect(byFile.get(broken)).toMatchObject({ type: null, description: null });
    }
    expect(byFile.has("Ünïcode notes/café déjà vu 1999.md")).toBe(true);
    expect(byFile.has("team/memory-0020.md")).toBe(true);
  });

  it("prints a readable list and a summary line", async () => {
    const result = await teammem(["scan", memoryDir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}\S+ +Ünïcode notes\/café déjà vu 1999\.md {2}Memory 1999 — /);
    expect(lines).toContain("skipped  escape-folder  symlink-escape: symbolic link to a folder outside the memory directory (not followed)");
    expect(lines.at(-1)).toBe(`${MEMORY_COUNT + Object.keys(HOSTILE).length} memories, showing the newest 200 (--all for every one); 2 skipped.`);
  });
});

describe("teammem manifest", () => {
  it("S5, C6: one line per memory of the newest 200, in the exact manifest format", async () => {
    const result = await teammem(["manifest", memoryDir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe("- [user] missing-description.md (2030-01-01T00:00:00.123Z)");
    const newest = generated[MEMORY_COUNT - 1]!;
    expect(lines[1]).toBe(`- [${newest.type}] ${newest.file} (${newest.mtime.toISOString()}): ${newest.description}`);
    for (const line of lines.slice(1)) expect(line).toMatch(/^- \[(user|feedback|project|reference)\] \S.* \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\): .+$/);
  });

  it("R4: --surfaced leaves those memories out, named relative to DIR or by absolute path (as recall takes them)", async () => {
    const second = generated[MEMORY_COUNT - 2]!.file;
    const third = generated[MEMORY_COUNT - 3]!.file;
    const result = await teammem(["manifest", memoryDir, "--surfaced", `missing-description.md,./${second},${path.join(memoryDir, third)}`, "--json"]);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(result.stdout) as { dir: string; lines: string[] };
    expect(manifest.lines).toHaveLength(197);
    expect(manifest.lines.some((line) => line.includes("missing-description.md") || line.includes(` ${second} `) || line.includes(` ${third} `))).toBe(false);
    expect(manifest.lines[0]).toContain(generated[MEMORY_COUNT - 1]!.file);
  });
});

describe("teammem lint", () => {
  it("F1-F6, S3, I3-I4: reports the hostile files by rule id and exits 1; valid memories only as orphans", async () => {
    const result = await teammem(["lint", memoryDir, "--json"]);
    expect(result.code).toBe(1);
    const { findings } = JSON.parse(result.stdout) as { findings: Finding[] };
    const rulesOf = (file: string): string[] => findings.filter((finding) => finding.file === file).map((finding) => finding.rule).sort();
    for (const broken of ["no-frontmatter.md", "unclosed-frontmatter.md", "bad-yaml.md", "alias-bomb.md", "empty.md"]) {
      expect(rulesOf(broken)).toEqual(["frontmatter-invalid", "index-orphan"]);
    }
    // What teammem propose would refuse is said before anyone tries (C12).
    expect(rulesOf("binary.md")).toEqual(["frontmatter-invalid", "index-orphan", "not-utf8"]);
    expect(rulesOf("unknown-type.md")).toEqual(["index-orphan", "unknown-type"]);
    expect(rulesOf("missing-description.md")).toEqual(["index-orphan", "missing-description"]);
    expect(rulesOf("vague.md")).toEqual(["index-orphan", "vague-description"]);
    expect(rulesOf("feedback-without-why.md")).toEqual(["index-orphan", "missing-how-to-apply", "missing-why"]);
    expect(rulesOf("relative-date.md")).toEqual(["index-orphan", "relative-date"]);
    expect(rulesOf("derivable.md")).toEqual(["derivable-content", "index-orphan"]);
    expect(rulesOf("huge.md")).toEqual(["index-orphan", "too-large"]);
    expect(rulesOf("bom-crlf.md")).toEqual(["index-orphan"]);
    expect(rulesOf("escape-file.md")).toEqual(["symlink-escape"]);
    expect(rulesOf("escape-folder")).toEqual(["symlink-escape"]);
    expect(rulesOf("MEMORY.md")).toEqual(["index-dangling", "index-dangling", "index-truncated"]);
    expect(rulesOf("team/MEMORY.md")).toEqual(["index-dangling"]);
    const generatedFindings = findings.filter((finding) => generated.some((memory) => memory.file === finding.file));
    expect(generatedFindings.map((finding) => [finding.file, finding.rule])).toEqual(
      [...ORPHANS, TEAM_ORPHAN].map((index) => [generated[index]!.file, "index-orphan"]).sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    expect(findings.find((finding) => finding.rule === "relative-date")?.fix).toContain("2024-06-06");
  });

  it("prints findings grouped by file with the fix, and exits 1", async () => {
    const result = await teammem(["lint", memoryDir]);
    expect(result.code).toBe(1);
    const block = result.stdout.split("\n\n").find((group) => group.startsWith("unknown-type.md\n"));
    expect(block).toContain('  error    unknown-type: Type "opinion" is not one of user, feedback, project, reference, so the memory counts as untyped.\n           fix: Use exactly one of the four types.');
    expect(result.stdout).toMatch(/\d+ errors and \d+ warnings in \d+ files\.\n$/);
  });
});

describe("teammem index --check", () => {
  it("I2-I4, C7: sizes, truncation and the loaded window of an index of 1,901 lines, exit 1", async () => {
    const result = await teammem(["index", memoryDir, "--check", "--json"]);
    expect(result.code).toBe(1);
    const check = JSON.parse(result.stdout) as CheckJson;
    const contentLines = rootIndex.trimEnd().split("\n");
    expect(check).toMatchObject({ lines: 1_901, bytes: rootIndex.trimEnd().length, lineTruncated: true, byteTruncated: true, loadedLines: 200 });
    // Two header lines, then 198 entries reach the model; the other 1,701 never do.
    expect(check.entriesOutsideWindow).toHaveLength(1_899 - 198);
    expect(check.entriesOutsideWindow[0]?.line).toBe(201);
    expect(check.loaded.split("\n").slice(0, 200)).toEqual(contentLines.slice(0, 200));
    expect(check.loaded).toMatch(/Note from teammem: this MEMORY\.md has 1901 lines \(the limit is 200\)/);
    expect(check.dangling).toEqual([{ line: 12, file: "gone-a.md" }, { line: 1_901, file: "area-9/gone-b.md" }]);
    expect(check.orphans).toEqual(expectedRootOrphans());
  });

  it("checks team/ on its own and prints the numbers for people", async () => {
    const team = JSON.parse((await teammem(["index", path.join(memoryDir, "team"), "--check", "--json"])).stdout) as CheckJson;
    expect(team).toMatchObject({ lines: 100, lineTruncated: false, byteTruncated: false, loadedLines: 100, entriesOutsideWindow: [], dangling: [{ line: 5, file: "gone-team.md" }], orphans: ["memory-0040.md"] });
    const human = await teammem(["index", memoryDir, "--check"]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("lines    1,901 of 200 (over: cut to the first 200)");
    expect(human.stdout).toContain("index-dangling: Line 12 links to gone-a.md, which does not exist, so agents are offered a memory they cannot open. Remove the line");
  });
});

describe("teammem index --fix", () => {
  it("I4: repairs team/ (CRLF) keeping every other byte, shows the diff, and --check is then clean", async () => {
    const teamDir = await copyMemoryDir("team");
    const fix = await teammem(["index", teamDir, "--fix"]);
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain("@@ -5,1 +4,0 @@\n-- [Gone](gone-team.md) — removed last spring\n");
    const added = `- [Memory ${TEAM_ORPHAN}](memory-0040.md) — ${generated[TEAM_ORPHAN]!.description}`;
    expect(fix.stdout).toContain(`@@ -101,0 +101,1 @@\n+${added}\n`);
    expect(await readFile(path.join(teamDir, "MEMORY.md"), "utf8")).toBe(teamIndex.replace("- [Gone](gone-team.md) — removed last spring\r\n", "") + `${added}\r\n`);
    const check = await teammem(["index", teamDir, "--check", "--json"]);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ dangling: [], orphans: [] });
    expect((await teammem(["index", teamDir, "--fix"])).stdout).toContain("MEMORY.md needs no repair");
  });

  it("I4: repairs the root index in place; only the truncation is left for a person", async () => {
    const copy = await copyMemoryDir();
    const fix = await teammem(["index", copy, "--fix", "--json"]);
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout)).toEqual({ changed: true, added: expectedRootOrphans(), removed: ["gone-a.md", "area-9/gone-b.md"], isTruncated: true });
    const after = await readFile(path.join(copy, "MEMORY.md"), "utf8");
    const kept = rootIndex.split("\n").filter((line) => !line.includes("gone-")).join("\n");
    expect(after.startsWith(kept)).toBe(true);
    expect(after.slice(kept.length).trimEnd().split("\n")).toHaveLength(expectedRootOrphans().length);
    const check = await teammem(["index", copy, "--check", "--json"]);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toMatchObject({ dangling: [], orphans: [], lineTruncated: true });
  });
});

describe("what people read", () => {
  it("no command prints a requirement id: findings, index checks, repairs, scans and recall speak plain words", async () => {
    const dir = await mkdtemp(path.join(workDir, "plain-words-"));
    const outside = await mkdtemp(path.join(workDir, "plain-words-outside-"));
    await put(path.join(outside, "x.md"), "---\ndescription: outside\n---\n");
    const memory = (fields: string, body = "Body\n"): string => `---\n${fields}\n---\n${body}`;
    const files: Record<string, string> = {
      "no-frontmatter.md": "Just a note.\n",
      "quoted.md": memory("name: Q\ndescription: fix: the #2 case for the importer\ntype: user"),
      "unknown-type.md": memory("name: U\ndescription: The team prefers tabs in Makefiles\ntype: opinion"),
      "untitled.md": memory("description: Ann is the release manager for mobile"),
      "no-description.md": memory("name: N\ntype: user"),
      "vague.md": memory("name: V\ndescription: user preferences\ntype: user"),
      "feedback.md": memory("name: F\ndescription: User wants answers without a closing summary\ntype: feedback", "No summaries.\n"),
      "freeze.md": memory("name: Z\ndescription: Mobile release merge freeze for non-urgent PRs\ntype: project", "Freeze until next Friday.\n**Why:** release.\n**How to apply:** hold PRs.\n"),
      "derivable.md": memory("name: D\ndescription: Upload retries are capped so the queue never stalls\ntype: reference", "See src/upload/retry.ts:42.\n"),
      "team/MEMORY.md": "- [Gone](gone.md) — removed\n",
      "team/conventions.md": memory("name: C\ndescription: Integration tests hit a real database, never mocks\ntype: feedback", "Use the real database.\n**Why:** mocks hid a broken migration.\n**How to apply:** every integration test.\n"),
    };
    for (const [file, content] of Object.entries(files)) await put(path.join(dir, file), content);
    await symlink(path.join(outside, "x.md"), path.join(dir, "escape.md"));
    await symlink(path.join(outside, "missing.md"), path.join(dir, "broken.md"));
    const entries = Array.from({ length: 210 }, (_, index) => `- [Entry ${index}](gone-${index}.md) — ${index === 0 ? "x".repeat(160) : "gone"}`);
    await writeFile(path.join(dir, "MEMORY.md"), `${entries.join("\n")}\n`);
    const token = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
    await writeFile(path.join(dir, "reference_deploy_bot.md"), `---\nname: Deploy bot\ndescription: Where the deploy bot's GitHub access comes from\ntype: reference\n---\nToken: ${token}\n`);

    const lintJson = JSON.parse((await teammem(["lint", dir, "--json"])).stdout) as { findings: Finding[] };
    const rules = new Set(lintJson.findings.map((finding) => finding.rule));
    for (const rule of ["frontmatter-invalid", "unknown-type", "missing-type", "missing-name", "missing-description", "vague-description", "missing-why", "missing-how-to-apply", "relative-date", "derivable-content", "unreadable", "symlink-escape", "index-dangling", "index-orphan", "index-long-line", "index-truncated", "secret"]) {
      expect(rules, rule).toContain(rule);
    }
    const runs = [
      await teammem(["lint", dir]),
      await teammem(["index", dir, "--check"]),
      await teammem(["index", path.join(dir, "team"), "--check"]),
      await teammem(["scan", dir, "--all"]),
      await teammem(["manifest", dir]),
      await teammem(["recall", dir, "--query", "why do integration tests hit a real database", "--surfaced", "vague.md"], {}),
      await teammem(["index", dir, "--fix"]),
      await teammem(["index", path.join(dir, "team"), "--fix"]),
    ];
    for (const run of runs) {
      expect(run.stdout.length).toBeGreaterThan(0);
      expect(run.stdout + run.stderr).not.toMatch(/\b[FISRAPXTGC]\d{1,2}\b/);
    }
    expect(runs[0]!.stdout).toContain("  warning  index-orphan: vague.md is not listed in MEMORY.md, so an agent reading the index does not know it exists (only recall can still find it).\n           fix: Add a one-line entry for it to MEMORY.md (`teammem index DIR --fix` adds one).");
    expect(runs[5]!.stdout).toContain("team/conventions.md");
    expect(runs[0]!.stdout).toContain("error    secret (line 6): github-classic-token (ghp_…aE4y) at column 8: every member's agent reads memories");
    expect(runs.map((run) => run.stdout + run.stderr).join("\n")).not.toContain(token);
  });
});

describe("bad usage", () => {
  it("exits 2 with the problem on stderr, without needing any teammem setup", async () => {
    const file = path.join(memoryDir, "vague.md");
    const cases: [string[], RegExp][] = [
      [["scan"], /scan needs a memory directory/],
      [["lint", path.join(workDir, "nope")], /no such directory/],
      [["manifest", file], /is not a directory/],
      [["scan", memoryDir, "--bogus"], /--bogus/],
      [["index", memoryDir, "--check", "--fix"], /exactly one of --check or --fix/],
      [["index", memoryDir], /exactly one of --check or --fix/],
    ];
    for (const [args, message] of cases) {
      const result = await teammem(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
  });
});

function describeMemory(index: number): Generated {
  const id = String(index).padStart(4, "0");
  let file = `memory-${id}.md`;
  if (index % 20 === 0) file = `team/${file}`;
  else if (index % 100 === 99) file = `Ünïcode notes/café déjà vu ${index}.md`;
  else if (index % 4 === 1) file = `area-${index % 7}/${file}`;
  else if (index % 4 === 2) file = `area-${index % 7}/deep/${file}`;
  const type = TYPES[index % TYPES.length]!;
  const description = `Decision ${index} says the upload service retries ${index % 9} times before paging`;
  return { index, file, type, description, mtime: new Date(BASE_TIME + index * 61_007) };
}

function memoryText(memory: Generated): string {
  return `---\nname: Memory ${memory.index}\ndescription: ${memory.description}\ntype: ${memory.type}\n---\nKeep the retry budget small.\n**Why:** paging storms in the past.\n**How to apply:** when touching the upload queue.\n`;
}

function indexLine(memory: Generated, relativeTo = ""): string {
  return `- [Memory ${memory.index}](${memory.file.slice(relativeTo.length).replace(/ /g, "%20")}) — retry budget ${memory.index}`;
}

/** I1: every non-team memory but the orphans, with one dangling line inside the window and one at the end. */
function buildRootIndex(): string {
  const entries = generated.filter((memory) => !memory.file.startsWith("team/") && !ORPHANS.includes(memory.index)).map((memory) => indexLine(memory));
  entries.splice(9, 0, "- [Gone A](gone-a.md) — deleted by hand");
  entries.push("- [Gone B](area-9/gone-b.md) — moved away");
  return `# Memory index\n\n${entries.join("\n")}\n`;
}

/** T1: team/ has its own index, with CRLF line ends and a comment that must survive a repair. */
function buildTeamIndex(): string {
  const entries = generated.filter((memory) => memory.file.startsWith("team/") && memory.index !== TEAM_ORPHAN).map((memory) => indexLine(memory, "team/"));
  entries.splice(3, 0, "- [Gone](gone-team.md) — removed last spring");
  return ["<!-- team index: one line per memory -->", ...entries, ""].join("\r\n");
}

function expectedRootOrphans(): string[] {
  return [...ORPHANS.map((index) => generated[index]!.file), ...Object.keys(HOSTILE)].sort((a, b) => a.localeCompare(b));
}

/** A private copy of the directory (or of one subfolder) for a test that writes. */
async function copyMemoryDir(subfolder = ""): Promise<string> {
  const copy = path.join(await mkdtemp(path.join(workDir, "copy-")), "memory");
  await cp(path.join(memoryDir, subfolder), copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

async function put(filePath: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, content);
}

/** Nine levels of nine aliases: 387 million nodes if anything expanded it. */
function aliasBomb(): string {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (let level = 1; level < 9; level++) {
    const previous = String.fromCharCode(96 + level);
    const name = String.fromCharCode(97 + level);
    levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
  }
  return levels.join("\n");
}

/**
 * The real CLI in a child process. `PORT=eighty` is a configuration `doctor` rejects: these
 * commands work on a local folder and must never load configuration, so they succeed anyway.
 */
function teammem(args: string[], env: Record<string, string> = { PORT: "eighty" }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: workDir, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("teammem lint and secrets on a memory holding a credential", () => {
  it("lint reports a secret error (exit 1) and secrets --json gives the range, never the value", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const os = await import("node:os");
    const dir = await mkdtemp(path.join(os.tmpdir(), "teammem-secret-"));
    try {
      const password = ["Zq8", "vR2pL7xW", "k3"].join("-");
      const body = `postgres://app:${password}@db.internal:5432/app\n`;
      await writeFile(path.join(dir, "reference_db.md"), `---\nname: Staging DB\ndescription: How to reach the staging database\ntype: reference\n---\n${body}`);
      const lint = await teammem(["lint", dir, "--json"]);
      expect(lint.code).toBe(1);
      const findings = (JSON.parse(lint.stdout) as { findings: { rule: string; line?: number }[] }).findings;
      expect(findings).toContainEqual(expect.objectContaining({ rule: "secret", line: 6 }));
      expect(lint.stdout).not.toContain(password);

      const secrets = await teammem(["secrets", path.join(dir, "reference_db.md"), "--json"]);
      expect(secrets.code).toBe(1);
      const [finding] = (JSON.parse(secrets.stdout) as { findings: { start: number; end: number; line: number }[] }).findings;
      const text = `---\nname: Staging DB\ndescription: How to reach the staging database\ntype: reference\n---\n${body}`;
      expect(text.slice(finding!.start, finding!.end)).toBe(password);
      expect(secrets.stdout).not.toContain(password);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
