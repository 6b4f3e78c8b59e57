import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";

const root = path.resolve(import.meta.dirname, "../..");

function configError(env: Record<string, string>): AppError {
  try {
    loadConfig(env, "/srv");
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected loadConfig to refuse");
}

describe("TEAMMEM_PUBLIC_URL", () => {
  it.each(["https://u:pubsecretpw@teammem.example.com", "https://pubsecretpw@teammem.example.com/", "http://u:pubsecretpw@127.0.0.1:3000/path"])(
    "refuses %s (a user name or password would be shown to every visitor) without repeating it",
    (value) => {
      const error = configError({ TEAMMEM_PUBLIC_URL: value });
      expect(error.details.variables).toEqual(["TEAMMEM_PUBLIC_URL"]);
      expect(error.message).toMatch(/TEAMMEM_PUBLIC_URL must not hold a user name or password/);
      expect(error.message).not.toContain("pubsecretpw");
    },
  );

  it("keeps addresses whose path or query holds an @", () => {
    expect(loadConfig({ TEAMMEM_PUBLIC_URL: "https://teammem.example.com/@team?by=a@b" }, "/srv").publicUrl).toBe("https://teammem.example.com/@team?by=a@b");
  });

  it("stops npm start with one line naming the variable, before anything is created", () => {
    const dataDir = path.join(os.tmpdir(), `teammem-never-created-${process.pid}`);
    const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts"), "--setup-only"], {
      cwd: root,
      encoding: "utf8",
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TEAMMEM_DATA_DIR: dataDir, TEAMMEM_PUBLIC_URL: "https://u:pubsecretpw@teammem.example.com" },
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^teammem: Invalid configuration: TEAMMEM_PUBLIC_URL must not hold a user name or password/)]);
    expect(result.stdout + result.stderr).not.toContain("pubsecretpw");
  });
});
