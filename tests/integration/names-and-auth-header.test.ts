import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoToken, setUpDemoWithToken } from "../helpers/demo-token";

/**
 * Names people give that every page, CLI listing and commit message shows (API tokens, accounts),
 * and the Authorization header as HTTP defines it. Real setup, real route handlers.
 */
const BASE = "http://127.0.0.1:3000";
let worldDir = "";
let token = "";

beforeAll(async () => {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-names-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "names-password-1234";
  token = await setUpDemoWithToken("lena@acme.example", { name: "names", projectIds: ["acme-checkout"] });
}, 120_000);
afterAll(async () => {
  const { getDatabase } = await import("@/app/_server/context");
  await getDatabase().$disconnect();
  await rm(worldDir, { recursive: true, force: true });
});

const me = async (authorization: string) => (await import("@/app/api/me/route")).GET(new Request(`${BASE}/api/me`, { headers: { authorization } }), { params: Promise.resolve({}) });

describe("names shown to others", () => {
  it.each([
    ["a newline", "deploy\nbot", "must be one line"],
    ["a right-to-left override", "invoice\u202Eexe.md", "holds an invisible or control character (U+202E)"],
    ["a zero-width space", "ci\u200Bbot", "holds an invisible or control character (U+200B)"],
  ])("an API token name with %s is refused, naming the problem", async (_, name, problem) => {
    await expect(demoToken("lena@acme.example", { name, projectIds: ["acme-checkout"] })).rejects.toThrow(`name: ${problem}`);
  });

  it("an account name with a bidirectional override is refused; one with an emoji joiner is kept", async () => {
    const { getAuth, getDatabase } = await import("@/app/_server/context");
    const { createAccount } = await import("@/lib/auth/manage-users");
    const [auth, db] = [await getAuth(), getDatabase()];
    await expect(createAccount(auth, db, { email: "rtl@acme.example", name: "Ann \u202Enimda" })).rejects.toThrow("name: holds an invisible or control character (U+202E)");
    await expect(createAccount(auth, db, { email: "family@acme.example", name: "Kim 👩\u200D👩\u200D👧" })).resolves.toBeDefined();
  });
});

describe("the Authorization header", () => {
  it("takes the Bearer scheme in any letter case, as HTTP defines it", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) expect((await me(`${scheme} ${token}`)).status, scheme).toBe(200);
    expect((await me(`Basic ${token}`)).status).toBe(401);
  });
});
