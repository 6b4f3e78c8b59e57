import { describe, expect, it } from "vitest";
import { scanSecrets } from "@/lib/secrets/scan-secrets";
import { SECRET_KINDS, type SecretFinding } from "@/lib/secrets/secret-finding";
import { buildNegativeNotes } from "./build-negative-corpus";
import { buildPositiveNotes, createChars, createRandom, type ExpectedSecret } from "./build-secret-corpus";

const SEED = 20260305;
const positives = buildPositiveNotes(SEED);
const negatives = buildNegativeNotes(SEED);
const chars = createChars(createRandom(SEED + 1));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function isExact(finding: SecretFinding, expected: ExpectedSecret): boolean {
  return finding.kind === expected.kind && finding.start === expected.start && finding.end === expected.end;
}

function isCovered(findings: SecretFinding[], expected: ExpectedSecret): boolean {
  return findings.some((finding) => finding.start <= expected.start && finding.end >= expected.end);
}

describe("scanSecrets on the issue-4 corpus (T3)", () => {
  it("has at least 80 positive notes over every kind and 60 negatives", () => {
    expect(positives.length).toBeGreaterThanOrEqual(80);
    expect(negatives.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(positives.flatMap((note) => note.secrets.map((secret) => secret.kind)));
    expect([...kinds].sort()).toEqual([...SECRET_KINDS].sort());
  });

  it.each(positives.map((note) => [note.name, note] as const))("finds %s with the exact kind and range", (_name, note) => {
    const findings = scanSecrets(note.text);
    for (const expected of note.secrets) {
      expect(findings, `${expected.kind} at ${expected.start}`).toContainEqual(
        expect.objectContaining({ kind: expected.kind, start: expected.start, end: expected.end }),
      );
    }
    expect(findings).toHaveLength(note.secrets.length);
  });

  it.each(negatives.map((note) => [note.name, note] as const))("flags nothing in %s", (_name, note) => {
    expect(scanSecrets(note.text)).toEqual([]);
  });

  it("reports recall and false-positive rate", () => {
    const expected = positives.flatMap((note) => note.secrets.map((secret) => ({ secret, findings: scanSecrets(note.text) })));
    const exact = expected.filter(({ secret, findings }) => findings.some((finding) => isExact(finding, secret))).length;
    const covered = expected.filter(({ secret, findings }) => isCovered(findings, secret)).length;
    const blockedNotes = positives.filter((note) => scanSecrets(note.text).length > 0).length;
    const flaggedNegatives = negatives.filter((note) => scanSecrets(note.text).length > 0).length;
    // Issue 4 asks for these numbers in the test output.
    console.log(
      [
        `secrets corpus: ${positives.length} positive notes, ${expected.length} secrets, ${negatives.length} negatives`,
        `recall (exact kind+range): ${exact}/${expected.length} = ${((100 * exact) / expected.length).toFixed(1)}%`,
        `recall (fully covered):    ${covered}/${expected.length} = ${((100 * covered) / expected.length).toFixed(1)}%`,
        `positive notes blocked:    ${blockedNotes}/${positives.length}`,
        `false-positive rate:       ${flaggedNegatives}/${negatives.length} = ${((100 * flaggedNegatives) / negatives.length).toFixed(1)}%`,
      ].join("\n"),
    );
    expect(covered).toBe(expected.length);
    expect(flaggedNegatives).toBe(0);
  });
});

describe("scanSecrets findings", () => {
  it("gives 1-based line and column in UTF-16 units, after non-ASCII text", () => {
    const text = "---\nname: 密码\ndescription: 🚀 launch notes\ntype: project\n---\n说明 🚀 password: hunter2!\n";
    const [finding] = scanSecrets(text);
    const start = text.indexOf("hunter2!");
    expect(finding).toEqual({ kind: "password-assignment", start, end: start + 8, line: 6, column: 17, preview: "…" });
  });

  it("finds a credential wrapped in base64, which anyone can decode, and leaves base64 of prose and binary alone", () => {
    const assignment = `aws_secret_access_key=${chars(ALNUM, 40)}`;
    for (const encoding of ["base64", "base64url"] as const) {
      const encoded = Buffer.from(assignment).toString(encoding);
      const text = `Decode this: ${encoded}\nthen export it.`;
      const [finding] = scanSecrets(text);
      expect(finding, encoding).toMatchObject({ kind: "base64-encoded-secret", start: text.indexOf(encoded), end: text.indexOf(encoded) + encoded.length });
    }
    const prose = Buffer.from("the retry budget is thirty per minute, since the vendor throttles").toString("base64");
    const digest = Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 73 + 11) % 256)).toString("base64");
    expect(scanSecrets(`An example of base64: ${prose}. A digest: sha256 ${digest}`).filter((finding) => finding.kind === "base64-encoded-secret")).toEqual([]);
  });

  it("finds a secret in the frontmatter description", () => {
    const text = "---\nname: Mail\ndescription: staging password: Sp4rkl3!x\ntype: reference\n---\nbody\n";
    expect(scanSecrets(text).map((finding) => finding.kind)).toEqual(["password-assignment"]);
  });

  it("finds a quoted password with spaces in .env lines and in prose, and leaves sentences about a password alone", () => {
    const spaced = ["p@ss w0rd!", "Tr0ub4dor&3 xyz", "Gr33n Tea Time 42"];
    const text = `Mail relay:\n\`\`\`\nSMTP_PASSWORD="${spaced[0]}"\nDB_PASSWORD='${spaced[1]}'\n\`\`\`\nthe smtp password is "${spaced[2]}" since May.\n`;
    const findings = scanSecrets(text);
    expect(findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(spaced);
    for (const prose of ['password: "stored in 1Password under Staging DB"', 'password: "see the vault"', 'password: "change me"', 'The password field says "Enter your password"']) {
      expect(scanSecrets(prose), prose).toEqual([]);
    }
  });

  it("S3: a single 6 MB line of base64 letters is scanned, not thrown on (a regular expression once overflowed V8's stack)", () => {
    for (const line of ["z".repeat(6 * 1024 * 1024), "-".repeat(6 * 1024 * 1024)]) {
      expect(() => scanSecrets(`${line}\nThe bot token is ghp_${chars(ALNUM, 36)}\n`)).not.toThrow();
    }
    expect(scanSecrets(`${"z".repeat(6 * 1024 * 1024)}\nThe bot token is ghp_${chars(ALNUM, 36)}\n`).map((finding) => finding.kind)).toContain("github-classic-token");
  });

  it("cannot be switched off with a secretlint-disable comment", () => {
    const token = `ghp_${chars(ALNUM, 36)}`;
    const text = `<!-- secretlint-disable -->\n${token}\n<!-- secretlint-enable -->\n${token} # secretlint-disable-line\n`;
    expect(scanSecrets(text)).toHaveLength(2);
  });

  it("never carries the value, only a preview", () => {
    const token = `sk_live_${chars(ALNUM, 44)}p7dc`;
    const [finding] = scanSecrets(`key ${token}`);
    expect(JSON.stringify(finding)).not.toContain(token.slice(8, 20));
    expect(finding?.preview).toBe("sk_live_…p7dc");
  });

  it("never carries a secret of the corpus, whatever rule found it: only kind, range and preview", () => {
    for (const note of positives) {
      const findings = scanSecrets(note.text);
      for (const finding of findings) expect(Object.keys(finding).sort()).toEqual(["column", "end", "kind", "line", "preview", "start"]);
      const shown = JSON.stringify(findings);
      for (const secret of note.secrets) expect(shown, note.name).not.toContain(secret.value.slice(0, -4));
    }
  });

  it.each([
    ["the staging db password is Tr0ub4dor&3x", "Tr0ub4dor&3x"],
    ["password: hunter2-prod-77", "hunter2-prod-77"],
    ["pw for the admin console is Zq8!mLp2rT", "Zq8!mLp2rT"],
    ["DB_PASSWORD=p@ss:w0rd!#2024", "p@ss:w0rd!#2024"],
    ['DB_PASSWORD="p@ss:w0rd!#2024"', "p@ss:w0rd!#2024"],
  ])("finds the password the outside corpus reported in %s", (text, value) => {
    const start = text.indexOf(value);
    expect(scanSecrets(text)).toEqual([expect.objectContaining({ kind: "password-assignment", start, end: start + value.length })]);
  });

  it("marks an unterminated private key as running to the end of the text", () => {
    const text = `Key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${chars(ALNUM, 64)}\n(truncated)`;
    const [finding] = scanSecrets(text);
    expect(finding).toMatchObject({ kind: "private-key", start: 5, end: text.length });
  });
});
