import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskedBlobId } from "@/lib/store/masked-blob-id";
import { outsideStoreWriter } from "../helpers/outside-store-writer";
import { PROJECT, startSyncWorld } from "../helpers/member-sync-world";
import { memoryText } from "../helpers/team-files";
import { readSyncChanges } from "@/lib/member-sync/read-sync-changes";
import { getProposal } from "@/lib/review/get-proposal";
import { parseStoredChecks } from "@/lib/review/stored-checks";
import type { SyncAnswer } from "@/lib/member-sync/sync-answer";

/**
 * The server's half of member sync, checked against git itself: every page of a full listing and
 * of a change listing names each file with the blob and text the store holds at the head (a
 * secret masked), MEMORY.md once, nothing twice, nothing missing; pages of a head that moved on
 * are refused (409) so a client never mixes two commits.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
let writer: ReturnType<typeof outsideStoreWriter>;
let writerClone: string;

beforeAll(async () => {
  world = await startSyncWorld();
  writerClone = path.join(world.root, "outside-writer");
  writer = outsideStoreWriter(world.config, writerClone);
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

const git = (args: string[]) => execFileSync("git", ["-C", writerClone, ...args]).toString();

/** What git holds in the project's folder at a commit: path → blob, for the files sync carries. */
function storeFilesAt(commit: string): Map<string, string> {
  const prefix = `projects/${PROJECT}/`;
  const files = new Map<string, string>();
  for (const line of git(["ls-tree", "-r", commit, "--", prefix]).trim().split("\n")) {
    const [meta, filePath] = line.split("\t") as [string, string];
    const memoryPath = filePath.slice(prefix.length);
    if (memoryPath.endsWith(".md") && (memoryPath === "MEMORY.md" || !memoryPath.endsWith("/MEMORY.md"))) files.set(memoryPath, meta.split(" ")[2]!);
  }
  return files;
}

async function allPages(options: { since: string | null; pageSize: number }): Promise<SyncAnswer[]> {
  const ask = (page: number, expectedHead: string | null) =>
    readSyncChanges(world.config, world.db, { projectId: PROJECT, userId: world.userIds.omar, since: options.since, expectedHead, page, pageSize: options.pageSize, proposalIds: [] });
  const first = await ask(1, null);
  const pages = [first];
  for (let page = 2; page <= first.pageCount; page++) pages.push(await ask(page, first.head));
  return pages;
}

const TOKEN = ["ghp", "_", "Z8nB6cD1fG5hJ0kS2aE4yR7mK2pQ9xL4vT3w"].join("");

describe("GET /api/projects/:id/sync, against git", () => {
  it("a full listing in pages names every file once, with the store's blob and text (a secret masked)", async () => {
    const head = await writer.commit(PROJECT, {
      "project_server_a.md": memoryText("Server A", "Alpha.", "About alpha"),
      "project_server_secret.md": memoryText("Server secret", `The bot token is ${TOKEN}.`, "About the bot"),
      "sub/project_server_nested.md": memoryText("Server nested", "Nested.", "About nesting"),
    });
    const pages = await allPages({ since: null, pageSize: 7 });
    expect(pages.every((page) => page.head === head && page.full && page.pageCount === pages.length)).toBe(true);
    const files = pages.flatMap((page) => page.files);
    const expected = storeFilesAt(head);
    expect(files.map((file) => file.path).sort()).toEqual([...expected.keys()].sort());
    for (const file of files) {
      if (file.path === "project_server_secret.md") {
        expect(file.masked).toBe(true);
        expect(file.content).not.toContain(TOKEN);
        expect(file.content).toContain("The bot token is");
        // Not the blob id, which is the unmasked text's hash (an offline oracle for the secret):
        // a keyed id of the same length, the same in every answer, that proposals may send back.
        expect(file.blob).toMatch(/^[0-9a-f]{40}$/);
        expect(file.blob).not.toBe(expected.get(file.path));
        expect(file.blob).toBe(maskedBlobId(world.config, expected.get(file.path)!));
        continue;
      }
      expect({ path: file.path, blob: file.blob }).toEqual({ path: file.path, blob: expected.get(file.path) });
      const text = git(["cat-file", "blob", file.blob]);
      {
        expect({ path: file.path, content: file.content, masked: file.masked }).toEqual({ path: file.path, content: text, masked: false });
      }
    }
    expect(files.find((file) => file.path === "project_server_a.md")!.changedCommit).toBe(head);
    expect(JSON.stringify(pages)).not.toContain(TOKEN);
  });

  it("a member's edit of a file it got masked is proposed against the store's real version of it", async () => {
    const head = await writer.commit(PROJECT, { "project_server_masked_edit.md": memoryText("Masked edit", `Token ${TOKEN} for the bot.`, "About masked edits") });
    const member = await world.makeMember("masked-editor");
    await world.syncAs(member);
    const file = path.join(member.teamDir, "project_server_masked_edit.md");
    const text = await readFile(file, "utf8");
    expect(text).toContain("[REDACTED:");
    await writeFile(file, text.replace("for the bot.", "for the deploy bot."));
    const report = await world.syncAs(member);
    expect(report.proposed).toMatchObject([{ path: "project_server_masked_edit.md", kind: "change" }]);
    const proposal = await world.db.proposal.findFirstOrThrow({ where: { path: "project_server_masked_edit.md" }, orderBy: { createdAt: "desc" } });
    expect(proposal.baseBlob).toBe(storeFilesAt(head).get("project_server_masked_edit.md"));
    // The marker that came back where the store holds the token is said in the review: the
    // masked diff shows that line unchanged, yet approving takes the token out of the store.
    const checks = (await getProposal(world.config, world.db, proposal.id)).checks;
    expect(checks.lint).toContainEqual(expect.objectContaining({ rule: "replaces-store-secret", severity: "warning", line: 6 }));
    expect(checks.blockers).toEqual([]);
    // The base commit the member's sync names is confirmed by git, so the commit gets its Base-Commit trailer.
    const { baseCommit } = parseStoredChecks(proposal.checks);
    expect(baseCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(["rev-parse", `${baseCommit}:projects/${PROJECT}/project_server_masked_edit.md`]).trim()).toBe(proposal.baseBlob);
  });

  it("a change listing names what changed since a commit, with the new blobs, and what was removed", async () => {
    const since = await writer.commit(PROJECT, { "project_server_b.md": memoryText("Server B", "Beta.", "About beta"), "project_server_c.md": memoryText("Server C", "Gamma.", "About gamma") });
    const head = await writer.commit(PROJECT, { "project_server_b.md": memoryText("Server B", "Beta, revised.", "About beta"), "project_server_c.md": null, "project_server_d.md": memoryText("Server D", "Delta.", "About delta") });
    const pages = await allPages({ since, pageSize: 1 });
    const files = pages.flatMap((page) => page.files);
    const expected = storeFilesAt(head);
    expect(files.map((file) => [file.path, file.blob]).sort()).toEqual([
      ["project_server_b.md", expected.get("project_server_b.md")],
      ["project_server_d.md", expected.get("project_server_d.md")],
    ]);
    expect(files.find((file) => file.path === "project_server_b.md")!.content).toContain("Beta, revised.");
    expect(pages[0]!.removed).toEqual(["project_server_c.md"]);
    expect(pages.every((page) => !page.full && page.head === head)).toBe(true);
  });

  it("a file the clone cannot read (the store it borrows objects from went away) fails the answer as STORE_UNAVAILABLE, never a shorter listing", async () => {
    await writer.commit(PROJECT, { "project_server_unreadable.md": memoryText("Server unreadable", "Only in the store.", "About a file only the store holds") });
    const head = (await allPages({ since: null, pageSize: 2000 }))[0]!.head;
    const alternates = path.join(world.config.storeCloneDir, ".git", "objects", "info", "alternates");
    const saved = await readFile(alternates, "utf8");
    const { restartBatchReader } = await import("@/lib/store/git");
    // The store's objects as they are once it moved away: a folder that holds none of them.
    const emptyObjects = path.join(world.root, "moved-store-objects");
    await mkdir(emptyObjects, { recursive: true });
    await writeFile(alternates, `${emptyObjects}\n`);
    restartBatchReader(world.config.storeCloneDir);
    try {
      await expect(readSyncChanges(world.config, world.db, { projectId: PROJECT, userId: world.userIds.omar, since: null, expectedHead: head, page: 1, pageSize: 2000, proposalIds: [] })).rejects.toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringMatching(/could not be read/) });
      // Any other read of those objects is a 503 too, not a 500 "something went wrong".
      const { readFileAt } = await import("@/lib/store/git");
      await expect(readFileAt(world.config.storeCloneDir, head!, `projects/${PROJECT}/project_server_unreadable.md`)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    } finally {
      await writeFile(alternates, saved);
      restartBatchReader(world.config.storeCloneDir);
    }
    expect((await allPages({ since: null, pageSize: 2000 }))[0]!.files.map((file) => file.path)).toContain("project_server_unreadable.md");
  });

  it("refuses a later page once the store moved on (409), so no answer mixes two commits", async () => {
    const pages = await allPages({ since: null, pageSize: 5 });
    expect(pages.length).toBeGreaterThan(1);
    await writer.commit(PROJECT, { "project_server_e.md": memoryText("Server E", "Epsilon.", "About epsilon") });
    await expect(
      readSyncChanges(world.config, world.db, { projectId: PROJECT, userId: world.userIds.omar, since: null, expectedHead: pages[0]!.head, page: 2, pageSize: 5, proposalIds: [] }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("answers over HTTP as the client asks, and a project the token does not reach is a 404", async () => {
    const answer = await fetch(`${world.base()}/api/projects/${PROJECT}/sync?page=1&pageSize=2000`, { headers: { authorization: `Bearer ${world.tokens.omar}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { files: { path: string }[]; pageCount: number };
    expect(body.pageCount).toBe(1);
    expect(body.files.map((file) => file.path).sort()).toEqual([...storeFilesAt(git(["rev-parse", "origin/main"]).trim()).keys()].sort());
    const other = await fetch(`${world.base()}/api/projects/another-project/sync?page=1`, { headers: { authorization: `Bearer ${world.tokens.omar}` } });
    expect(other.status).toBe(404);
  });
});
