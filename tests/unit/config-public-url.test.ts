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

  it.each([
    ["TEAMMEM_SERVER", "https://omar:srvsecretpw@teammem.example.com"],
    ["TEAMMEM_SERVER", "http://srvsecretpw@127.0.0.1:3000/"],
    ["ANTHROPIC_BASE_URL", "https://key:srvsecretpw@models.example.com/v1"],
  ])("refuses %s=%s: messages naming the address would print the password", (name, value) => {
    const error = configError({ [name]: value });
    expect(error.details.variables).toEqual([name]);
    expect(error.message).toMatch(new RegExp(`${name} must not hold a user name or password`));
    expect(error.message).not.toContain("srvsecretpw");
  });

  it("keeps server and model addresses without credentials", () => {
    const config = loadConfig({ TEAMMEM_SERVER: "https://teammem.example.com/", ANTHROPIC_BASE_URL: "http://127.0.0.1:8080/v1?by=a@b" }, "/srv");
    expect([config.cliServer, config.anthropicBaseUrl]).toEqual(["https://teammem.example.com", "http://127.0.0.1:8080/v1?by=a@b"]);
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
