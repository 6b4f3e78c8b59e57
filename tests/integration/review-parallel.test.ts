import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { useTempDirs } from "../helpers/temp-dir";
import { setUpTwoInstances } from "../helpers/two-instances";

const tempDir = useTempDirs();

function memory(index: number): string {
  return `---\nname: Parallel decision ${index}\ndescription: Checkout parallel approval decision number ${index} about queue ${index}\ntype: project\n---\nQueue ${index} drains every ${index + 1} minutes since 2026-11-0${(index % 9) + 1}.\n**Why:** load test ${index}.\n**How to apply:** consumers of queue ${index}.\n`;
}

describe("approvals from two app instances at once", () => {
  it("commits 20 approved proposals exactly once each, with linear history and no lock errors", async () => {
    const root = await tempDir("teammem-parallel-");
    const { configA, configB, remote } = await setUpTwoInstances(root);
    const dbA = createDb(configA);
    const dbB = createDb(configB);
    try {
      const [omar, lena] = await Promise.all([dbA.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } }), dbA.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } })]);
      const headBefore = execFileSync("git", ["rev-parse", "main"], { cwd: remote, encoding: "utf8" }).trim();
      const proposals = [];
      for (let index = 0; index < 20; index++) {
        proposals.push(await submitProposal(configA, dbA, { projectId: "acme-checkout", path: `project_parallel_${index}.md`, content: memory(index), source: "member", proposerId: omar.id }));
      }
      const results = await Promise.all(
        proposals.map((proposal, index) =>
          index % 2 === 0
            ? approveProposal(configA, dbA, { proposalId: proposal.id, approverId: lena.id, revision: 1 })
            : approveProposal(configB, dbB, { proposalId: proposal.id, approverId: lena.id, revision: 1 }),
        ),
      );
      expect(results.map((result) => result.state)).toEqual(Array(20).fill("committed"));
      expect(new Set(results.map((result) => result.committedCommit)).size).toBe(20);

      const git = (...args: string[]) => execFileSync("git", args, { cwd: remote, encoding: "utf8" }).trim();
      expect(git("rev-list", "--merges", `${headBefore}..main`)).toBe("");
      expect(git("rev-list", "--count", `${headBefore}..main`)).toBe("20");
      const touched = git("log", "--format=", "--name-only", `${headBefore}..main`).split("\n").filter((file) => file.includes("project_parallel_"));
      expect(touched.sort()).toEqual(proposals.map((_, index) => `projects/acme-checkout/project_parallel_${index}.md`).sort());
    } finally {
      await Promise.all([dbA.$disconnect(), dbB.$disconnect()]);
    }
  }, 300_000);
});
