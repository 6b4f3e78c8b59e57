import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { readEditBase } from "@/lib/memories/read-edit-base";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { readCurrentFile } from "@/lib/store/commit-change";
import { outsideStoreWriter } from "../helpers/outside-store-writer";

/**
 * A team memory's page hands "Propose an edit" its base in the page's data, not only on screen:
 * that copy must be masked too (a viewer could read it in the page source).
 */
let root: string;
let config: Config;
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-edit-base-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the edit base of a team memory's page", () => {
  it("is masked when the file in the store holds a secret, and keeps the store's blob", async () => {
    const token = ["ghp", "_", "Lk8Jh7Gf6Ds5Aq4Wz3Xc2Vb1Nm0Qw9Er8Nm4P"].join("");
    const password = ["Summer", "2025", "!"].join("");
    await outsideStoreWriter(config, path.join(root, "outside")).commit(PROJECT, {
      "reference_legacy_staging.md": `---\nname: Legacy staging\ndescription: How to reach the legacy staging database\ntype: reference\n---\nThe staging db password is ${password}\nGitHub token ${token}\n`,
    });
    const base = await readEditBase(config, PROJECT, "reference_legacy_staging.md");
    expect(base?.content).toContain("[REDACTED:");
    expect(base?.content).not.toContain(token);
    expect(base?.content).not.toContain(password);
    expect(base?.content).toContain("How to reach the legacy staging database");
    // Named by its masked id, not by the blob id (the unmasked text's hash), and a proposal made
    // from it is based on the store's real version.
    const real = (await readCurrentFile(config, PROJECT, "reference_legacy_staging.md"))!.blob;
    expect(base?.blob).toMatch(/^[0-9a-f]{40}$/);
    expect(base?.blob).not.toBe(real);
    const db = createDb(config);
    try {
      const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const proposal = await submitProposal(config, db, { projectId: PROJECT, path: "reference_legacy_staging.md", content: base!.content.replace("How to reach", "How we reach"), baseBlob: base!.blob, source: "member", proposerId: omar.id });
      expect(proposal.baseBlob).toBe(base!.blob); // shown masked again
      expect((await db.proposal.findUniqueOrThrow({ where: { id: proposal.id } })).baseBlob).toBe(real);
      // The real id is answered as any unknown id is: accepting it would confirm a guess of the secret.
      const attempt = (baseBlob: string) => submitProposal(config, db, { projectId: PROJECT, path: "reference_legacy_staging.md", content: base!.content, baseBlob, source: "member", proposerId: omar.id });
      const [withReal, withGuess] = await Promise.all([attempt(real).catch((error: Error) => error.message), attempt("0".repeat(39) + "1").catch((error: Error) => error.message)]);
      expect(withReal).toBe(withGuess);
      expect(withReal).toMatch(/^baseBlob: no version of/);
    } finally {
      await db.$disconnect();
    }
    expect(await readEditBase(config, PROJECT, "reference_no_such_file.md")).toBeNull();
  });
});
