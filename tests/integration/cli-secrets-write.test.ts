import { spawnSync } from "node:child_process";
import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
// What users run: the compiled CLI (built here when missing or older than its sources).
const cli = TEAMMEM_BIN;
beforeAll(ensureCompiledCli);

function teammem(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Built from pieces so the repository itself carries no credential-shaped string.
const PASSWORD = ["Zq8", "vR2pL7xW", "91"].join("-");
const MEMORY = `---\nname: Checkout database\ndescription: How the checkout service reaches its database\ntype: reference\n---\nConnect with postgres://app:${PASSWORD}@db.internal:5432/app\n**Why:** the read replica lags.\n`;

describe("teammem secrets --redact --write", () => {
  it("rewrites the file without the secret, keeps its mode, keeps an owner-only backup and never prints the secret", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "reference_checkout_db.md");
    await writeFile(file, MEMORY);
    await chmod(file, 0o640);

    const result = teammem(["secrets", file, "--redact", "--write"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0); // the file is clean now
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);

    const rewritten = await readFile(file, "utf8");
    expect(rewritten).not.toContain(PASSWORD);
    expect(rewritten).toContain("[REDACTED:");
    expect(rewritten).toContain("**Why:** the read replica lags.");
    expect((await stat(file)).mode & 0o777).toBe(0o640);

    const entries = await readdir(dir);
    const backups = entries.filter((entry) => /^reference_checkout_db\.md\.bak-\d{8}T\d{6}Z$/.test(entry));
    expect(backups).toHaveLength(1);
    expect(entries).toHaveLength(2); // no temporary file left behind
    const backup = path.join(dir, backups[0]!);
    expect(await readFile(backup, "utf8")).toBe(MEMORY);
    expect((await stat(backup)).mode & 0o777).toBe(0o600);
    expect(result.stdout).toContain(backup);

    // A second run finds nothing and writes nothing.
    const again = teammem(["secrets", file, "--redact", "--write"]);
    expect(again.code).toBe(0);
    expect(await readdir(dir)).toHaveLength(2);
  });

  it("leaves the file alone when a secret's end cannot be bounded", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "notes.md");
    const text = `Deploy key:\n-----BEGIN ${"OPENSSH PRIVATE KEY"}-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nmore notes that are not the key\n`;
    await writeFile(file, text);
    const result = teammem(["secrets", file, "--redact", "--write"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not changed.*remove them by hand/);
    expect(await readFile(file, "utf8")).toBe(text);
    expect(await readdir(dir)).toEqual(["notes.md"]);
  });

  it("--write needs --redact and a file", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "memory.md");
    await writeFile(file, MEMORY);
    expect(teammem(["secrets", file, "--write"]).code).toBe(2);
    expect(teammem(["secrets", "-", "--redact", "--write"]).code).toBe(2);
    expect(await readFile(file, "utf8")).toBe(MEMORY);
  });
});
