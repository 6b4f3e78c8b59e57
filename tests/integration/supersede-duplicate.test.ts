import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { supersedeDuplicate } from "@/lib/review/supersede-duplicate";
import { runSetup } from "@/lib/setup/run-setup";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const GRAFANA = "reference_grafana_payflow.md";

describe("superseding a near-duplicate", () => {
  it("turns a new memory into an edit of the listed duplicate, so approval replaces it instead of adding a second", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const db = createDb(config);
    try {
      const [omar, lena] = await Promise.all(["omar@acme.example", "lena@acme.example"].map((email) => db.user.findUniqueOrThrow({ where: { email } })));
      const content = `---\nname: Grafana "Payments / PayFlow Vendor Health" dashboard\ndescription: Grafana dashboard "Payments / PayFlow Vendor Health" separates PayFlow outages from our bugs by vendor latency and decline codes\ntype: reference\n---\nDashboard: "Payments / PayFlow Vendor Health" in Grafana, folder Checkout.\n`;
      const proposal = await submitProposal(config, db, { projectId: "acme-checkout", path: "reference_grafana_vendor.md", content, source: "member", proposerId: omar!.id });
      expect(proposal.checks.duplicates.map((duplicate) => duplicate.path)).toContain(GRAFANA);

      await expect(supersedeDuplicate(config, db, { proposalId: proposal.id, actorId: lena!.id, targetPath: "feedback_real_db_in_tests.md" })).rejects.toThrow(/not one of this proposal's possible duplicates/);
      const retargeted = await supersedeDuplicate(config, db, { proposalId: proposal.id, actorId: lena!.id, targetPath: GRAFANA });
      expect(retargeted).toMatchObject({ path: GRAFANA, state: "in_review", revision: 2 });
      expect(retargeted.baseBlob).not.toBeNull();
      expect(retargeted.events.at(-1)?.reason).toMatch(/now an edit of reference_grafana_payflow\.md/);

      const approved = await approveProposal(config, db, { proposalId: proposal.id, approverId: lena!.id, revision: 2 });
      expect(approved.state).toBe("committed");
      const show = (file: string) => execFileSync("git", ["show", `main:projects/acme-checkout/${file}`], { cwd: config.storeRemote, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
      expect(show(GRAFANA)).toContain("separates PayFlow outages");
      expect(() => show("reference_grafana_vendor.md")).toThrow();
    } finally {
      await db.$disconnect();
    }
  });
});
