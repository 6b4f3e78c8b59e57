import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const tsx = path.resolve("node_modules/.bin/tsx");

// Runs in its own process so that nothing (vitest's console capture) stands between the auth
// library and the real stderr the operator's log collector reads.
function authScript(repo: string): string {
  const from = (file: string) => JSON.stringify(path.join(repo, file));
  return `
import { createAuth } from ${from("lib/auth/auth.ts")};
import { readAuthSecret } from ${from("lib/auth/auth-secret.ts")};
import { loadConfig } from ${from("lib/config.ts")};
import { createDb } from ${from("lib/db/client.ts")};
import { setLogLevel } from ${from("lib/log.ts")};

const config = loadConfig();
setLogLevel(config.logLevel);
const db = createDb(config);
const auth = createAuth({ config, db, secret: (await readAuthSecret(config)) ?? "" });
const signIn = (headers: Record<string, string>, password: string) =>
  auth.handler(new Request(config.publicUrl + "/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email: "lena@acme.example", password }),
  }));
const statuses = [
  (await signIn({ origin: config.publicUrl, "x-forwarded-for": "203.0.113.9" }, "wrong-password-guess")).status,
  (await signIn({ origin: "https://evil.example", "x-forwarded-for": "203.0.113.9" }, "wrong-password-guess")).status,
  (await signIn({ origin: config.publicUrl }, "wrong-password-guess")).status,
];
await db.$disconnect();
process.stdout.write(JSON.stringify({ statuses }) + "\\n");
`;
}

describe("log lines", () => {
  it("every line the auth library writes (failed sign-in, foreign origin, unknown client address) is one JSON object", async () => {
    const dir = await tempDir();
    const dataDir = path.join(dir, "data");
    await runSetup(loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_INITIAL_PASSWORD: "log-lines-password-1" }));
    const script = path.join(dir, "sign-in-badly.mts");
    await writeFile(script, authScript(path.resolve(".")));

    const result = spawnSync(tsx, [script], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", TEAMMEM_DATA_DIR: dataDir, TEAMMEM_LOG_LEVEL: "debug" },
    });
    expect(result.status, result.stderr).toBe(0);
    const lines = (result.stdout + result.stderr).split("\n").filter((line) => line.trim() !== "");
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    const events = lines.map((line) => JSON.parse(line) as { event?: string; level?: string; message?: string; statuses?: number[] });
    expect(events.find((event) => event.statuses)?.statuses).toEqual([401, 403, 401]);
    const authLines = events.filter((event) => event.event === "auth");
    expect(authLines.map((event) => event.message)).toEqual(expect.arrayContaining(["Invalid password", "Invalid origin: https://evil.example"]));
    expect(authLines.every((event) => ["debug", "info", "warn", "error"].includes(event.level ?? ""))).toBe(true);
  });
});
