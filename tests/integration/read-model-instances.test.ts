import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { ensureReadModel } from "@/lib/read-model/ensure-read-model";
import { getProject } from "@/lib/projects/get-project";
import { loadRecallSource } from "@/lib/read-model/load-recall-source";
import { queryMemoryRows } from "@/lib/read-model/query-memory-rows";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { restartBatchReader } from "@/lib/store/git";
import { refreshStore } from "@/lib/store/read-store";
import { useTempDirs } from "../helpers/temp-dir";
import { setUpTwoInstances } from "../helpers/two-instances";

const tempDir = useTempDirs();
const PROJECT = "acme-checkout";

describe("the read model with two app instances on one database", () => {
  it("never serves a stale view after a commit on the other instance, and never moves back to an older head", async () => {
    const root = await tempDir("teammem-read-model-instances-");
    const { configA, configB } = await setUpTwoInstances(root);
    const dbA = createDb(configA);
    const dbB = createDb(configB);
    try {
      // Both instances have served the project once (their caches are warm).
      const before = (await ensureReadModel(configB, dbB)).commit;
      expect((await ensureReadModel(configA, dbA)).commit).toBe(before);
      const warm = await loadRecallSource(configB, dbB, PROJECT);

      const omar = await dbA.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const lena = await dbA.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
      const content = "---\nname: Two instances\ndescription: Checkout memory committed on instance A and read on instance B\ntype: project\n---\nDecided 2026-11-02.\n**Why:** test.\n**How to apply:** test.\n";
      const proposal = await submitProposal(configA, dbA, { projectId: PROJECT, path: "project_two_instances.md", content, source: "member", proposerId: omar.id });
      const approved = await approveProposal(configA, dbA, { proposalId: proposal.id, approverId: lena.id, revision: 1 });
      expect(approved.state).toBe("committed");
      expect((await ensureReadModel(configA, dbA)).commit).toBe(approved.committedCommit);

      // Instance B has not fetched yet (its refresh is throttled): it still serves the new commit.
      const seenByB = await ensureReadModel(configB, dbB);
      expect(seenByB.commit).toBe(approved.committedCommit);
      const page = await queryMemoryRows(dbB, { projectId: PROJECT, filters: {}, page: 1, pageSize: 5, now: new Date() });
      expect(page.rows[0]!.path).toBe("project_two_instances.md");
      const recallB = await loadRecallSource(configB, dbB, PROJECT);
      expect(recallB.memories[0]!.path).toBe("project_two_instances.md");
      expect(warm.memories[0]!.path).not.toBe("project_two_instances.md");
      expect(await recallB.readText("project_two_instances.md")).toBe(content);
      // A's view did not move back either.
      expect((await ensureReadModel(configA, dbA)).commit).toBe(approved.committedCommit);
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
  });

  it("an edit submitted on the other instance right after a commit takes the committed file as its base, and its approval commits", async () => {
    const root = await tempDir("teammem-read-model-base-");
    const { configA, configB } = await setUpTwoInstances(root);
    const dbA = createDb(configA);
    const dbB = createDb(configB);
    try {
      await ensureReadModel(configB, dbB); // B has fetched just now: its next routine fetch waits a few seconds
      const omar = await dbA.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const lena = await dbA.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
      const memory = (rule: string) => `---\nname: Base on B\ndescription: Checkout memory committed on A, edited on B\ntype: project\n---\n${rule}\n**Why:** test.\n**How to apply:** test.\n`;
      const added = await submitProposal(configA, dbA, { projectId: PROJECT, path: "project_base_on_b.md", content: memory("Retry twice."), source: "member", proposerId: omar.id });
      const committed = await approveProposal(configA, dbA, { proposalId: added.id, approverId: lena.id, revision: 1 });
      expect(committed.state).toBe("committed");

      // On B, at once: no baseBlob means "the file in the store now", which is A's commit.
      const edit = await submitProposal(configB, dbB, { projectId: PROJECT, path: "project_base_on_b.md", content: memory("Retry three times."), source: "member", proposerId: omar.id });
      expect(edit.baseBlob).not.toBeNull();
      const approved = await approveProposal(configB, dbB, { proposalId: edit.id, approverId: lena.id, revision: 1 });
      expect(approved.state).toBe("committed");
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
  });

  it("while the store it borrows objects from is gone, the other instance still lists the project's memories at the new commit", async () => {
    const root = await tempDir("teammem-read-model-outage-");
    const { configA, configB } = await setUpTwoInstances(root);
    const dbA = createDb(configA);
    const dbB = createDb(configB);
    const alternates = path.join(configB.storeCloneDir, ".git", "objects", "info", "alternates");
    try {
      expect((await getProject(configB, dbB, PROJECT)).memories.length).toBeGreaterThan(0); // B has served the project
      const omar = await dbA.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const lena = await dbA.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
      const content = "---\nname: During the outage\ndescription: Committed on A just before the store went away\ntype: project\n---\nDecided.\n**Why:** test.\n**How to apply:** test.\n";
      const proposal = await submitProposal(configA, dbA, { projectId: PROJECT, path: "project_during_outage.md", content, source: "member", proposerId: omar.id });
      expect((await approveProposal(configA, dbA, { proposalId: proposal.id, approverId: lena.id, revision: 1 })).state).toBe("committed");

      await refreshStore(configB, { force: true }); // B's routine fetch: its origin/main names A's commit
      // The store's objects as B sees them once the store moved away: a folder that holds none.
      const saved = await readFile(alternates, "utf8");
      const gone = path.join(root, "moved-store-objects");
      await mkdir(gone, { recursive: true });
      await writeFile(alternates, `${gone}\n`);
      restartBatchReader(configB.storeCloneDir);
      try {
        const project = await getProject(configB, dbB, PROJECT);
        expect(project.memories[0]!.path).toBe("project_during_outage.md");
      } finally {
        await writeFile(alternates, saved);
        restartBatchReader(configB.storeCloneDir);
      }
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
  });
});
