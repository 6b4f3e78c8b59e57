import { mkdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outsideStoreWriter } from "../helpers/outside-store-writer";
import { memoryText, readTeamFile } from "../helpers/team-files";
import { PROJECT, startSyncWorld, type SyncMember } from "../helpers/member-sync-world";
import { syncStateFile } from "@/lib/sync/read-sync-head";
import { findQuietState, isTeamDirAsRecorded } from "@/lib/sync/quiet-sync";
import { syncExitCode, type SyncReport } from "@/lib/sync/sync-report";

/**
 * The quiet path of `teammem sync` (lib/sync/quiet-sync.ts): a sync from a state with nothing
 * waiting, whose team/ looks as recorded, asks the store once and builds nothing else. These
 * cases start from such a state and change one thing each, on either side: every change must be
 * seen exactly as the full sync sees it, and a real no-op must stay one request and one small
 * state write. The store's files are committed with dates in the past, as a member's machine
 * meets them (files written within two seconds of a sync are read again: racy mtimes).
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
let member: SyncMember;
let writer: ReturnType<typeof outsideStoreWriter>;

beforeAll(async () => {
  world = await startSyncWorld();
  member = await world.makeMember("quiet");
  writer = outsideStoreWriter(world.config, path.join(world.root, "outside-writer"));
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

async function pushToStore(files: Record<string, string>): Promise<void> {
  await writer.commit(PROJECT, files);
}

const sync = (options: { isDryRun?: boolean; projectId?: string } = {}) => world.syncAs(member, options);

/** The sync requests (`GET …/sync`) one run made. */
async function syncRequestsOf(work: () => Promise<SyncReport>): Promise<{ report: SyncReport; requests: string[] }> {
  const before = world.requests.length;
  const report = await work();
  return { report, requests: world.requests.slice(before).filter((request) => request.method === "GET" && request.url.includes("/sync")).map((request) => request.url) };
}

const text = (name: string, body: string) => memoryText(name, body, `Decision about ${name.toLowerCase()}`);
const teamFile = (file: string) => path.join(member.teamDir, file);
const stateText = () => readFile(syncStateFile(member.memoryDir), "utf8");
const tablesOf = (state: string) => state.slice(state.indexOf(',"files":['));
const isInStep = (report: SyncReport) => syncExitCode(report) === 0 && report.proposed.length === 0 && report.pulled.added.length + report.pulled.changed.length + report.pulled.removed.length === 0;

beforeEach(async () => {
  // Every case starts in step: whatever the last one left is settled by a sync of its own first.
  await rm(member.teamDir, { recursive: true, force: true });
  await rm(syncStateFile(member.memoryDir), { force: true });
  await pushToStore({ "project_quiet_a.md": text("Quiet A", "Alpha is 1."), "project_quiet_b.md": text("Quiet B", "Beta is 2."), "project_quiet_d.md": text("Quiet D", "Delta is 4.") });
  const first = await sync();
  expect(first.mode).toBe("full");
  expect(await readTeamFile(member.teamDir, "project_quiet_a.md")).toContain("Alpha is 1.");
});

describe("teammem sync with nothing to do", () => {
  it("asks the server once, changes no file, and saves only its time", async () => {
    const before = await stateText();
    const aBefore = await stat(teamFile("project_quiet_a.md"));
    const { report, requests } = await syncRequestsOf(() => sync());
    expect(report.mode).toBe("unchanged");
    expect(isInStep(report)).toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("since=");
    const after = await stateText();
    expect(tablesOf(after)).toBe(tablesOf(before));
    expect(JSON.parse(after).syncedAt > JSON.parse(before).syncedAt).toBe(true);
    expect((await stat(teamFile("project_quiet_a.md"))).mtimeMs).toBe(aBefore.mtimeMs);
  });

  it("with --dry-run writes nothing at all", async () => {
    const before = await stateText();
    const report = await sync({ isDryRun: true });
    expect(report).toMatchObject({ mode: "unchanged", isDryRun: true });
    expect(await stateText()).toBe(before);
  });

  it("offline says so, exits 2 and keeps the state as it was", async () => {
    const before = await stateText();
    world.setOffline(true);
    const report = await sync().finally(() => world.setOffline(false));
    expect(report.mode).toBe("offline");
    expect(syncExitCode(report)).toBe(2);
    expect(await stateText()).toBe(before);
    expect(isInStep(await sync())).toBe(true);
  });
});

describe("teammem sync after one change, from a quiet state", () => {
  it("an edit that keeps the file's size is proposed, with the store asked once", async () => {
    await writeFile(teamFile("project_quiet_a.md"), text("Quiet A", "Alpha is 7."));
    const { report, requests } = await syncRequestsOf(() => sync());
    expect(report.proposed).toMatchObject([{ path: "project_quiet_a.md", kind: "change" }]);
    expect(requests).toHaveLength(1);
  });

  it("offline, a change found after the question failed waits in the outbox and goes out once", async () => {
    await writeFile(teamFile("project_quiet_offline.md"), text("Quiet offline", "Written offline."));
    world.setOffline(true);
    const offline = await sync().finally(() => world.setOffline(false));
    expect(offline).toMatchObject({ mode: "offline", outbox: 1 });
    const online = await sync();
    expect(online.proposed).toMatchObject([{ path: "project_quiet_offline.md", kind: "new" }]);
    expect((await sync()).proposed).toEqual([]);
    // Withdrawn again, so the cases after this one meet no proposal of it.
    await rm(teamFile("project_quiet_offline.md"));
    await sync();
  });

  it("a file replaced under the same name, size and mtime (another inode) is proposed", async () => {
    const original = await stat(teamFile("project_quiet_b.md"));
    const replacement = teamFile("replacement.tmp");
    await writeFile(replacement, text("Quiet B", "Beta is 9."));
    await utimes(replacement, original.atime, original.mtime);
    await rename(replacement, teamFile("project_quiet_b.md"));
    const report = await sync();
    expect(report.proposed).toMatchObject([{ path: "project_quiet_b.md", kind: "change" }]);
  });

  it("a touched file with the same text proposes nothing and stays in step", async () => {
    const now = new Date();
    await utimes(teamFile("project_quiet_a.md"), now, now);
    const report = await sync();
    expect(isInStep(report)).toBe(true);
  });

  it("a deleted file becomes a retirement; a new one a proposal", async () => {
    await rm(teamFile("project_quiet_d.md"));
    await writeFile(teamFile("project_quiet_new.md"), text("Quiet new", "Gamma is 3."));
    const report = await sync();
    expect(report.proposed.map((proposed) => [proposed.path, proposed.kind]).sort()).toEqual([
      ["project_quiet_d.md", "retirement"],
      ["project_quiet_new.md", "new"],
    ]);
  });

  it("a new file holding a secret is listed at every sync, never sent", async () => {
    const secret = ["ghp", "_", "W3nB6cD1fG5hJ0kS2aE4yR7mK2pQ9xL4vT8z"].join("");
    await writeFile(teamFile("project_quiet_secret.md"), text("Quiet secret", `The token is ${secret}.`));
    for (let run = 0; run < 2; run++) {
      const before = world.requests.length;
      const report = await sync();
      expect(report.skipped).toMatchObject([{ path: "project_quiet_secret.md", reason: expect.stringContaining("secret") }]);
      expect(syncExitCode(report)).toBe(1);
      expect(world.requests.slice(before).some((request) => (request.url + request.body).includes(secret))).toBe(false);
    }
    await rm(teamFile("project_quiet_secret.md"));
  });

  it("a store change is pulled with the one answer the quiet check asked for", async () => {
    await pushToStore({ "project_quiet_b.md": text("Quiet B", "Beta is 5."), "project_quiet_c.md": text("Quiet C", "Gamma is 4.") });
    const { report, requests } = await syncRequestsOf(() => sync());
    expect(report.pulled).toMatchObject({ added: ["project_quiet_c.md"], changed: ["project_quiet_b.md"] });
    expect(requests).toHaveLength(1);
    expect(await readTeamFile(member.teamDir, "project_quiet_b.md")).toContain("Beta is 5.");
    expect(isInStep(await sync())).toBe(true);
  });

  it("a sync for another project than the one remembered does not take the remembered state's answer", async () => {
    const before = await stateText();
    await expect(sync({ projectId: "no-such-project" })).rejects.toThrow();
    expect(tablesOf(await stateText())).toBe(tablesOf(before));
    expect(isInStep(await sync())).toBe(true);
  });
});

describe("the quiet check", () => {
  /** Whether a sync now would take the quiet path (asking the store once, reading no file). */
  async function isQuiet(): Promise<boolean> {
    const state = await stateText();
    const quiet = findQuietState(state, JSON.parse(state), world.base(), null);
    return quiet !== null && (await isTeamDirAsRecorded(member.teamDir, quiet));
  }

  it("holds right after a sync, and for the sync after that", async () => {
    expect(await isQuiet()).toBe(true);
    await sync();
    expect(await isQuiet()).toBe(true);
  });

  it("fails on every kind of local change", async () => {
    const disturbances: [string, () => Promise<unknown>][] = [
      ["an edit of the same size", () => writeFile(teamFile("project_quiet_a.md"), text("Quiet A", "Alpha is 8."))],
      ["a touch", () => utimes(teamFile("project_quiet_b.md"), new Date(), new Date())],
      ["a new file", () => writeFile(teamFile("project_quiet_e.md"), text("Quiet E", "Epsilon."))],
      ["a new file in a folder", async () => (await mkdir(teamFile("sub"), { recursive: true }), await writeFile(teamFile("sub/project_quiet_f.md"), text("Quiet F", "Phi.")))],
      ["a deleted file", () => rm(teamFile("project_quiet_d.md"))],
      ["a file replaced, same size and mtime", async () => {
        const original = await stat(teamFile("project_quiet_b.md"));
        await writeFile(teamFile("replacement.tmp"), text("Quiet B", "Beta is 8."));
        await utimes(teamFile("replacement.tmp"), original.atime, original.mtime);
        await rename(teamFile("replacement.tmp"), teamFile("project_quiet_b.md"));
      }],
      ["a link", () => symlink("/etc/hostname", teamFile("project_quiet_link.md"))],
    ];
    for (const [label, disturb] of disturbances) {
      await rm(syncStateFile(member.memoryDir), { force: true });
      await rm(member.teamDir, { recursive: true, force: true });
      await sync();
      expect({ label, isQuietBefore: await isQuiet() }).toEqual({ label, isQuietBefore: true });
      await disturb();
      expect({ label, isQuiet: await isQuiet() }).toEqual({ label, isQuiet: false });
    }
  });

  it("does not hold for a state with something waiting, or for another server", async () => {
    await writeFile(teamFile("project_quiet_a.md"), text("Quiet A", "Alpha is 6."));
    await sync(); // proposed: pending review
    const state = await stateText();
    expect(findQuietState(state, JSON.parse(state), world.base(), null)).toBeNull();
    await rm(syncStateFile(member.memoryDir), { force: true });
    await rm(member.teamDir, { recursive: true, force: true });
    await sync();
    const clean = await stateText();
    expect(findQuietState(clean, JSON.parse(clean), world.base(), null)).not.toBeNull();
    expect(findQuietState(clean, JSON.parse(clean), "http://127.0.0.1:9", null)).toBeNull();
    expect(findQuietState(clean, JSON.parse(clean), world.base(), "another-project")).toBeNull();
  });
});
