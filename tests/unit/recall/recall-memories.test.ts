import { generateKeyPairSync } from "node:crypto";
import { mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanMemoryDir } from "@/lib/memdir/scan-memory-dir";
import { isSingleWord, recallMemories } from "@/lib/recall/recall-memories";
import { FIXTURE_NOW, writeLedgerlineMemories } from "../../fixtures/recall/ledgerline-memories";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();

async function ledgerlineDir(): Promise<string> {
  const dir = await tempDir("recall-local-");
  await writeLedgerlineMemories(dir);
  return dir;
}

async function put(dir: string, file: string, text: string, mtime: Date): Promise<void> {
  const fullPath = path.join(dir, file);
  await mkdir(path.dirname(fullPath), { recursive: true });
  await writeFile(fullPath, text);
  await utimes(fullPath, mtime, mtime);
}

describe("recallMemories without a model (the local ranker)", () => {
  it("C5: ranks private and team memories together, team/ at any depth, and says which selector ran", async () => {
    const memoryDir = await ledgerlineDir();
    const result = await recallMemories({ memoryDir, query: "add a background job that regenerates invoice PDFs", now: FIXTURE_NOW });
    expect(result.selector).toBe("local");
    expect(result.fallbackReason).toBeUndefined();
    const files = result.selected.map((memory) => memory.file);
    expect(files).toContain("team/infra/reference_bullmq_queues.md");
    expect(files.length).toBeLessThanOrEqual(5);
    expect(result.selected[0]?.reason).toMatch(/^matched: /);
    expect(result.latencyMs).toBeGreaterThan(0);
    // S5: the manifest lists every memory (44 with frontmatter and the legacy log), MEMORY.md excluded.
    const lines = result.manifest?.split("\n");
    expect(lines).toHaveLength(45);
    expect(lines).toContain("- logs/2026/11/2026-11-20.md (2026-11-20T08:00:00.000Z)");
    expect(result.manifest).not.toContain("MEMORY.md");
  });

  it("leaves the manifest out when not asked for, and selects the same memories", async () => {
    const memoryDir = await ledgerlineDir();
    const query = "add a background job that regenerates invoice PDFs";
    const withManifest = await recallMemories({ memoryDir, query, now: FIXTURE_NOW });
    const without = await recallMemories({ memoryDir, query, now: FIXTURE_NOW, includeManifest: false });
    expect(without).not.toHaveProperty("manifest");
    expect(without.selected).toEqual(withManifest.selected);
    expect(without.selected.length).toBeGreaterThan(0);
  });

  it("ranks on the prompt without its secrets: a password's words neither choose memories nor come back in the reasons", async () => {
    const memoryDir = await tempDir("recall-secret-query-");
    await put(memoryDir, "project_reconciliation.md", "---\ndescription: The ledger reconciliation job runs nightly at 02:00\ntype: project\n---\nx\n", FIXTURE_NOW);
    await put(memoryDir, "project_nightly.md", "---\ndescription: Nightly builds publish to the staging bucket\ntype: project\n---\nx\n", FIXTURE_NOW);
    const password = ["ledger", "reconciliation", "77x"].join("-");
    const result = await recallMemories({ memoryDir, query: `why does the nightly build fail with DB_PASSWORD='${password}'`, now: FIXTURE_NOW });
    expect(result.selected.map((memory) => memory.file)).toEqual(["project_nightly.md"]);
    expect(JSON.stringify(result.selected)).not.toMatch(/ledger|reconciliation/);
  });

  it("the reason names the words as the query wrote them, inside hyphenated words too", async () => {
    const memoryDir = await tempDir("recall-reason-");
    await put(memoryDir, "feedback_real_db.md", "---\ndescription: Integration tests must hit a real database, never mocks\ntype: feedback\n---\nx\n", FIXTURE_NOW);
    await put(memoryDir, "project_other.md", "---\ndescription: Quarterly planning happens in the roadmap doc\ntype: project\n---\nx\n", FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "should the integration tests mock the real-database", now: FIXTURE_NOW });
    expect(result.selected.map((memory) => memory.file)).toEqual(["feedback_real_db.md"]);
    expect(result.selected[0]?.reason).toMatch(/^matched: /);
    expect(result.selected[0]?.reason).toContain("database");
    expect(result.selected[0]?.reason).not.toMatch(/databas(,|$)/); // the stem, not the word
  });

  it("returns nothing for an unrelated query", async () => {
    const memoryDir = await ledgerlineDir();
    const result = await recallMemories({ memoryDir, query: "what is a good recipe for banana bread", now: FIXTURE_NOW });
    expect(result).toMatchObject({ selector: "local", selected: [], dropped: [] });
  });

  it("C8: a single-word query returns nothing unless the caller allows it", async () => {
    const memoryDir = await ledgerlineDir();
    const skipped = await recallMemories({ memoryDir, query: "  kubectl  ", now: FIXTURE_NOW });
    expect(skipped).toMatchObject({ selector: "none", skipReason: "single-word-query", selected: [] });
    expect(skipped.manifest?.split("\n")).toHaveLength(45); // the page can still show what the model would see

    const allowed = await recallMemories({ memoryDir, query: "kubectl", allowSingleWord: true, now: FIXTURE_NOW });
    expect(allowed.selector).toBe("local");
    expect(allowed.selected.map((memory) => memory.file)).toContain("team/reference_kubectl_context_gotcha.md");
  });

  it("R2: the recent-tools rule holds through the entry point and the drop is reported", async () => {
    const memoryDir = await ledgerlineDir();
    const usage = "team/reference_kubectl_cheat_sheet.md";
    await put(memoryDir, usage, "---\nname: kubectl cheat sheet\ndescription: kubectl commands for restarting a deployment in staging\ntype: reference\n---\nrollout restart\n", FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "restart the workers deployment in staging", recentTools: ["kubectl"], now: FIXTURE_NOW });
    const files = result.selected.map((memory) => memory.file);
    expect(files).toContain("team/reference_kubectl_context_gotcha.md");
    expect(files).not.toContain(usage);
    expect(result.dropped).toContainEqual({ file: usage, reason: "tool-in-use" });
    // bug-05: a memory found through the tool alone says so, instead of an empty "matched: ".
    for (const memory of result.selected) expect(memory.reason).toMatch(/^matched: \S/);
    expect(result.selected.find((memory) => memory.file === "team/reference_kubectl_context_gotcha.md")?.reason).toMatch(/kubectl \(tool in use\)/);
  });

  it("names a tool in use as written, not by the stem the index keeps", async () => {
    const memoryDir = await tempDir("recall-tool-word-");
    await put(memoryDir, "project_stripe_webhooks_gotcha.md", "---\ndescription: Stripe webhooks arrive twice during retries: never assume one delivery\ntype: project\n---\nx\n", FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "record the refund in the ledger table", recentTools: ["mcp__stripe__create_refund"], now: FIXTURE_NOW });
    expect(result.selected.map((memory) => memory.reason)).toEqual([expect.stringContaining("stripe (tool in use)")]);
  });

  it("R4: already-surfaced memories are removed before selection and reported, by relative or absolute path", async () => {
    const memoryDir = await ledgerlineDir();
    const query = "validate the payload of the incoming Paygate webhook";
    const before = await recallMemories({ memoryDir, query, now: FIXTURE_NOW });
    expect(before.selected.map((memory) => memory.file).slice(0, 2)).toEqual(["team/feedback_zod_at_boundaries.md", "team/feedback_webhook_idempotency.md"]);

    const after = await recallMemories({
      memoryDir,
      query,
      alreadySurfaced: ["team/feedback_zod_at_boundaries.md", path.join(memoryDir, "team", "feedback_webhook_idempotency.md"), "not_a_memory.md"],
      now: FIXTURE_NOW,
    });
    const files = after.selected.map((memory) => memory.file);
    expect(files).not.toContain("team/feedback_zod_at_boundaries.md");
    expect(files).not.toContain("team/feedback_webhook_idempotency.md");
    expect(after.manifest).not.toContain("feedback_zod_at_boundaries.md");
    expect(after.manifest?.split("\n")).toHaveLength(43);
    expect(after.dropped).toEqual(
      expect.arrayContaining([
        { file: "team/feedback_zod_at_boundaries.md", reason: "already-surfaced" },
        { file: "team/feedback_webhook_idempotency.md", reason: "already-surfaced" },
      ]),
    );
    expect(after.dropped.filter((entry) => entry.reason === "already-surfaced")).toHaveLength(2);
  });

  it("R4: on the server, the path an injection showed the agent (memory/team/x.md, or absolute) counts as surfaced", async () => {
    const dir = await ledgerlineDir();
    const query = "validate the payload of the incoming Paygate webhook";
    // As the server recalls: scanned elsewhere, named by the agent's team folder (no folder read).
    const { memories } = await scanMemoryDir(dir, { all: true });
    const source = { memories, readText: (file: string) => readFile(path.join(dir, file), "utf8") };
    const serverRecall = (alreadySurfaced: string[]) => recallMemories({ memoryDir: "memory/team", displayDir: "memory/team", source, query, alreadySurfaced, now: FIXTURE_NOW });
    const [first, second] = (await serverRecall([])).selected;
    const shown = /^Memory.*?: (memory\/team\/\S+):$/m.exec(first?.injection ?? "")?.[1];
    expect(shown).toBe(`memory/team/${first?.file}`);

    const after = await serverRecall([shown ?? "", `/home/dana/.claude/projects/-work-ledgerline/memory/team/${second?.file}`]);
    expect(after.dropped.filter((entry) => entry.reason === "already-surfaced").map((entry) => entry.file).sort()).toEqual([first?.file, second?.file].sort());
    expect(after.selected.map((memory) => memory.file)).not.toContain(first?.file);
    expect(after.selected.map((memory) => memory.file)).not.toContain(second?.file);
  });

  it("S4: past the newest 200 memories the rest take no part and are reported as over-limit", async () => {
    const memoryDir = await tempDir("recall-many-");
    const start = Date.UTC(2026, 0, 1);
    for (let index = 0; index < 205; index++) {
      const description = index === 0 ? "Ancient note about the Zanzibar payment gateway outage" : `Note ${index} about the reporting pipeline`;
      await put(memoryDir, `team/note_${index}.md`, `---\ndescription: ${description}\ntype: project\n---\nx\n`, new Date(start + index * 60_000));
    }
    const result = await recallMemories({ memoryDir, query: "what happened with the Zanzibar payment gateway", now: FIXTURE_NOW });
    expect(result.manifest?.split("\n")).toHaveLength(200);
    const overLimit = result.dropped.filter((entry) => entry.reason === "over-limit").map((entry) => entry.file);
    expect(overLimit.sort()).toEqual(["team/note_0.md", "team/note_1.md", "team/note_2.md", "team/note_3.md", "team/note_4.md"]);
    expect(result.selected).toEqual([]); // the one memory about Zanzibar is among the oldest five
  });

  it("S4: past the newest 220 the over-limit list stops naming memories, as the server's does", async () => {
    const memoryDir = await tempDir("recall-more-");
    const start = Date.UTC(2026, 0, 1);
    for (let index = 0; index < 260; index++) await put(memoryDir, `note_${index}.md`, `---\ndescription: Note ${index}\ntype: project\n---\nx\n`, new Date(start + index * 60_000));
    const result = await recallMemories({ memoryDir, query: "what about the reporting pipeline", now: FIXTURE_NOW });
    const overLimit = result.dropped.filter((entry) => entry.reason === "over-limit").map((entry) => entry.file);
    expect(overLimit).toEqual(Array.from({ length: 20 }, (_, offset) => `note_${59 - offset}.md`));
  });

  it("R7, A3: the injection is a system reminder with the A3 header, the whole file and no note when short", async () => {
    const memoryDir = await tempDir("recall-inject-");
    const text = "---\nname: Deploy freeze\ndescription: Production deploy freeze for Black Friday week\ntype: project\n---\nNo deploys from 2026-11-26.\n";
    await put(memoryDir, "team/project_freeze.md", text, new Date(FIXTURE_NOW.getTime() - 47 * 86_400_000));
    await put(memoryDir, "feedback_fresh.md", "---\ndescription: Release trains leave on Tuesdays only\ntype: feedback\n---\nTuesdays.\n", FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "is there a deploy freeze or a Tuesday release train", now: FIXTURE_NOW, displayDir: "~/.claude/projects/-work-ledgerline/memory/" });
    const byFile = new Map(result.selected.map((memory) => [memory.file, memory]));
    const stale = byFile.get("team/project_freeze.md");
    expect(stale?.age).toBe("47 days ago");
    expect(stale?.injection).toBe(
      "<system-reminder>\n" +
        "This memory is 47 days old. It records what was true when it was written, not the current state: statements about code behaviour or file:line citations may be out of date. Check them against the current code before relying on them.\n" +
        "Memory: ~/.claude/projects/-work-ledgerline/memory/team/project_freeze.md:\n\n" +
        text.trimEnd() +
        "\n</system-reminder>",
    );
    expect(byFile.get("feedback_fresh.md")?.injection).toMatch(
      /^<system-reminder>\nMemory \(saved today\): ~\/\.claude\/projects\/-work-ledgerline\/memory\/feedback_fresh\.md:\n\n---\n/,
    );
  });

  it("C8: a long memory is cut at a line boundary to 200 lines / 4096 bytes with a note saying where the file is", async () => {
    const memoryDir = await tempDir("recall-long-");
    const lines = Array.from({ length: 400 }, (_, index) => `Line ${index} of the Zanzibar outage timeline.`);
    await put(memoryDir, "project_zanzibar_outage.md", `---\ndescription: Zanzibar gateway outage timeline\ntype: project\n---\n${lines.join("\n")}\n`, FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "Zanzibar gateway outage", now: FIXTURE_NOW });
    const injection = result.selected[0]?.injection ?? "";
    const body = injection.split("\n\n")[1] ?? "";
    expect(Buffer.byteLength(body, "utf8")).toBeLessThanOrEqual(4096);
    expect(body.split("\n").length).toBeLessThanOrEqual(200);
    expect(body.split("\n").at(-1)).toMatch(/^Line \d+ of the Zanzibar outage timeline\.$/); // whole lines only
    expect(injection).toContain(`Read the whole file at ${memoryDir}/project_zanzibar_outage.md.]`);
    expect(injection.endsWith("\n</system-reminder>")).toBe(true);
  });

  it.each([
    ["a key block the 200-line cut goes through", (key: string) => `${Array.from({ length: 180 }, (_, index) => `n${index}`).join("\n")}\n${key}\nafter the key\n`, true],
    ["a key pasted in part (no END line)", (key: string) => `${key.split("\n").slice(0, 6).join("\n")}\nAsk Dana for the rest.\n`, false],
  ] as const)("secrets: %s is masked up to the cut, and the injection keeps its note and closing tag", async (_label, bodyWith, isCut) => {
    const memoryDir = await tempDir("recall-key-");
    const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString().trimEnd();
    await put(memoryDir, "reference_platypus_sftp.md", `---\ndescription: Legacy SFTP integration with the platypus settlement bank\ntype: reference\n---\n${bodyWith(key)}`, FIXTURE_NOW);
    const result = await recallMemories({ memoryDir, query: "platypus sftp settlement bank", now: FIXTURE_NOW });
    const injection = result.selected[0]?.injection ?? "";
    expect(injection).toMatch(/^<system-reminder>\nMemory \(saved today\): /);
    expect(injection.endsWith("\n</system-reminder>")).toBe(true);
    expect(injection).toContain("[REDACTED:private-key ");
    expect(injection).not.toContain(key.split("\n")[2]); // no line of key material
    expect(injection.includes("This memory was shortened for recall")).toBe(isCut);
  });

  it("an empty or missing directory is not an error", async () => {
    const result = await recallMemories({ memoryDir: path.join(await tempDir(), "missing"), query: "how do we deploy", now: FIXTURE_NOW });
    expect(result).toMatchObject({ selector: "none", skipReason: "no-memories", manifest: "", selected: [], dropped: [] });
  });

  it("isSingleWord counts words separated by any whitespace", () => {
    expect(isSingleWord("deploy")).toBe(true);
    expect(isSingleWord("  ")).toBe(true);
    expect(isSingleWord("deploy\tstaging")).toBe(false);
  });
});
