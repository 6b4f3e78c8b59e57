import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { approveProposal } from "@/lib/review/approve-proposal";
import { getProposal } from "@/lib/review/get-proposal";
import { findProposalOrThrow } from "@/lib/review/proposal-records";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

describe("proposal content that holds a secret", () => {
  it("is sealed in the database and opened only inside the server", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const db = createDb(config);
    try {
      const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const password = ["Zq8", "vR2pL7xW", "k3"].join("-");
      const content = `---\nname: Staging DB\ndescription: How to reach the staging database\ntype: reference\n---\npostgres://app:${password}@db.internal:5432/app\n`;
      const proposal = await submitProposal(config, db, { projectId: "acme-checkout", path: "reference_staging_db.md", content, source: "member", proposerId: omar.id });
      expect(proposal.state).toBe("blocked_secret");

      const raw = await db.$queryRawUnsafe<{ content: string | null }[]>(`SELECT content FROM "ProposalRevision" WHERE "proposalId" = '${proposal.id}'`);
      expect(raw).toHaveLength(1);
      expect(raw[0]!.content).toMatch(/^sealed:v1:/);
      expect(raw[0]!.content).not.toContain(password);
      const everything = JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "Proposal"`)) + JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "ProposalEvent"`));
      expect(everything).not.toContain(password);

      // The server opens the seal for its own work (redaction, commit); what it shows stays masked.
      expect((await findProposalOrThrow(db, proposal.id)).content).toBe(content);
      const shown = (await getProposal(config, db, proposal.id)).content!;
      expect(shown).not.toContain(password);
      expect(shown).toContain("postgres://app:[REDACTED:url-password");
    } finally {
      await db.$disconnect();
    }
  });

  it("a credential in the memory's name is nowhere in the database in clear (the checks column included), and still shown masked", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const db = createDb(config);
    try {
      const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const token = `ghp_${"Zq8vR2pL7x".repeat(3)}Wk3mN9`;
      const content = `---\nname: Release bot ${token}\ndescription: The release bot's account\ntype: reference\n---\nIt tags releases.\n`;
      const proposal = await submitProposal(config, db, { projectId: "acme-checkout", path: "reference_release_bot.md", content, source: "member", proposerId: omar.id });
      expect(proposal.state).toBe("blocked_secret");
      const tables = ["Proposal", "ProposalRevision", "ProposalEvent", "AuditEvent"];
      const everything = (await Promise.all(tables.map((table) => db.$queryRawUnsafe(`SELECT * FROM "${table}"`)))).map((rows) => JSON.stringify(rows)).join("");
      expect(everything).not.toContain(token.slice(4, 20));
      const shown = await getProposal(config, db, proposal.id);
      expect(shown.name).toMatch(/^Release bot \[REDACTED:github-classic-token/);
    } finally {
      await db.$disconnect();
    }
  });

  it("an account name holding a credential (set before names were checked) is masked as a commit's author and in its trailers", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const db = createDb(config);
    try {
      const token = `sk_live_${"51Hq8vR2pL7x".repeat(2)}Wk3mN9`;
      const omar = await db.user.update({ where: { email: "omar@acme.example" }, data: { name: `Omar ${token}` } });
      const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
      const content = "---\nname: Named author\ndescription: A memory whose author's name holds a key\ntype: project\n---\nDecided.\n**Why:** test.\n**How to apply:** test.\n";
      const proposal = await submitProposal(config, db, { projectId: "acme-checkout", path: "project_named_author.md", content, source: "member", proposerId: omar.id });
      const approved = await approveProposal(config, db, { proposalId: proposal.id, approverId: lena.id, revision: 1 });
      expect(approved.state).toBe("committed");
      const commit = execFileSync("git", ["-C", config.storeRemote, "log", "-1", "--format=%an%n%B", "main"], { encoding: "utf8" });
      expect(commit).toMatch(/^Omar \[REDACTED:stripe/);
      expect(commit).not.toContain(token.slice(8, 24));
    } finally {
      await db.$disconnect();
    }
  });

  it("start-up masks an account name that holds a credential, in the database, and leaves other names alone", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const token = `ghp_${"Zq8vR2pL7x".repeat(3)}Wk3mN9`;
    const before = createDb(config);
    await before.user.update({ where: { email: "priya@acme.example" }, data: { name: `Priya ${token}` } });
    await before.$disconnect();
    await runSetup(config); // the next npm start
    const db = createDb(config);
    try {
      const names = Object.fromEntries((await db.user.findMany({ select: { email: true, name: true } })).map((user) => [user.email, user.name]));
      expect(names["priya@acme.example"]).toMatch(/^Priya \[REDACTED:github-classic-token/);
      expect(JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "User"`))).not.toContain(token.slice(4, 20));
      expect(names["omar@acme.example"]).toBe("Omar Haddad");
    } finally {
      await db.$disconnect();
    }
  });
});
