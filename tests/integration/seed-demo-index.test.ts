import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { DEMO_PROJECT } from "@/lib/demo/demo-team";
import { runSetup } from "@/lib/setup/run-setup";
import { commitChange } from "@/lib/store/commit-change";
import { lastChangeTimes, listTree, readBlobs, readFileAt, resolveRef } from "@/lib/store/git";
import { regenerateProjectIndex } from "@/lib/store/regenerate-project-index";
import { projectDir } from "@/lib/store/store-manifest";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const person = { name: "Omar Member", email: "omar@acme.example" };
const lead = { name: "Lena Lead", email: "lena@acme.example" };

/** MEMORY.md as a commit would regenerate it from the project's files at `ref`. */
async function regeneratedAt(clone: string, ref: string, projectId: string): Promise<string> {
  const prefix = `${projectDir(projectId)}/`;
  const [entries, times] = await Promise.all([listTree(clone, ref, prefix), lastChangeTimes(clone, ref, prefix)]);
  const memories = entries.filter((entry) => entry.path.startsWith(prefix));
  const contents = await readBlobs(clone, memories.map((entry) => entry.blob));
  return regenerateProjectIndex(memories.map((entry) => ({ path: entry.path.slice(prefix.length), text: contents.get(entry.blob) ?? "", updatedAt: times.get(entry.path) ?? null })));
}

describe("the demo store's MEMORY.md", () => {
  it("is what a commit regenerates, so the first approval changes exactly one index line", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const config = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_INITIAL_PASSWORD: "seed-index-password" });
    await runSetup(config);
    const clone = config.storeCloneDir;
    const seeded = (await resolveRef(clone, "refs/remotes/origin/main"))!;
    const indexPath = `${projectDir(DEMO_PROJECT.id)}/MEMORY.md`;

    const seededIndex = (await readFileAt(clone, seeded, indexPath))!;
    expect(seededIndex.split("\n").length).toBeGreaterThan(20);
    expect(seededIndex).toBe(await regeneratedAt(clone, seeded, DEMO_PROJECT.id));
    expect(seededIndex.split("\n").filter((line) => line.length > 150)).toEqual([]);

    const db = createDb(config);
    try {
      const outcome = await commitChange(config, db, {
        change: {
          projectId: DEMO_PROJECT.id,
          path: "project_refund_window.md",
          content: "---\nname: Refund window\ndescription: Refunds are accepted for 30 days since the 2026-11 policy change\ntype: project\n---\nRefunds: 30 days.\n**Why:** policy change.\n**How to apply:** checkout refunds.\n",
          baseBlob: null,
        },
        author: person,
        committer: lead,
        subject: "Add project memory: Refund window",
        trailers: { Source: "member" },
        onIntent: async () => {},
      });
      expect(outcome.status).toBe("committed");
      const approved = outcome.status === "committed" ? outcome.commit : "";
      const diff = execFileSync("git", ["diff", "--numstat", seeded, approved, "--", indexPath], { cwd: clone, encoding: "utf8" });
      expect(diff.trim()).toBe(`1\t0\t${indexPath}`); // one line added, none removed or rewritten
      const newIndex = (await readFileAt(clone, approved, indexPath))!;
      expect(newIndex.split("\n")[0]).toMatch(/^- \[Refund window\]\(project_refund_window\.md\)/);
    } finally {
      await db.$disconnect();
    }
  });
});
