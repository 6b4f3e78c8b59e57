import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";

const cwd = "/srv/app";

function configError(env: Record<string, string>): AppError {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected loadConfig to reject the environment");
}

describe("loadConfig", () => {
  it("defaults to the embedded mode: SQLite, bare store and demo home inside ./.teammem", () => {
    const config = loadConfig({}, cwd);
    expect(config.dataDir).toBe("/srv/app/.teammem");
    expect(config.databaseKind).toBe("sqlite");
    expect(config.sqliteFile).toBe("/srv/app/.teammem/teammem.db");
    expect(config.storeRemote).toBe("/srv/app/.teammem/store.git");
    expect(config.isEmbeddedStore).toBe(true);
    expect(config.claudeHome).toBe("/srv/app/.teammem/demo-home/.claude");
    expect(config.isDemoEnabled).toBe(true);
    expect(config.anthropicApiKey).toBeNull();
    expect([config.host, config.port]).toEqual(["127.0.0.1", 3000]);
  });

  it("on a team server (PostgreSQL + remote store) shows no private memory and seeds no demo", () => {
    const config = loadConfig(
      { DATABASE_URL: "postgresql://app:pw@db:5432/teammem", TEAMMEM_STORE_REMOTE: "git@github.com:acme/memory.git" },
      cwd,
    );
    expect(config.databaseKind).toBe("postgresql");
    expect(config.sqliteFile).toBeNull();
    expect(config.storeRemote).toBe("git@github.com:acme/memory.git");
    expect(config.isEmbeddedStore).toBe(false);
    expect(config.claudeHome).toBeNull();
    expect(config.isDemoEnabled).toBe(false);
  });

  it("honours every override and resolves relative paths against the working directory", () => {
    const config = loadConfig(
      {
        TEAMMEM_DATA_DIR: "data",
        TEAMMEM_STORE_REMOTE: "../team-store.git",
        TEAMMEM_CLAUDE_HOME: "~/.claude",
        TEAMMEM_DEMO: "off",
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:4010",
        TEAMMEM_RECALL_MODEL: "claude-haiku-4-5",
        HOST: "0.0.0.0",
        PORT: "8080",
      },
      cwd,
    );
    expect(config.dataDir).toBe("/srv/app/data");
    expect(config.storeRemote).toBe("/srv/team-store.git");
    expect(config.claudeHome).toMatch(/\/\.claude$/);
    expect(config.claudeHome?.startsWith("~")).toBe(false);
    expect(config.isDemoEnabled).toBe(false);
    expect(config.anthropicApiKey).toBe("test-key");
    expect(config.anthropicBaseUrl).toBe("http://127.0.0.1:4010");
    expect(config.recallModel).toBe("claude-haiku-4-5");
    expect([config.host, config.port]).toEqual(["0.0.0.0", 8080]);
  });

  it("reads a blank variable as unset, trims what is set, and lowercases the emails it keeps", () => {
    const config = loadConfig({ PORT: "  ", HOST: " 0.0.0.0 ", TEAMMEM_DEMO: " yes ", TEAMMEM_ADMIN_EMAIL: " Lead@Acme.Example " }, cwd);
    expect([config.host, config.port, config.isDemoEnabled]).toEqual(["0.0.0.0", 3000, true]);
    expect(config.adminEmail).toBe("lead@acme.example");
  });

  it("an explicitly empty TEAMMEM_CLAUDE_HOME switches the private view off", () => {
    expect(loadConfig({ TEAMMEM_CLAUDE_HOME: "" }, cwd).claudeHome).toBeNull();
  });

  it("a relative SQLite URL resolves against the working directory", () => {
    expect(loadConfig({ DATABASE_URL: "file:./db/x.db" }, cwd).sqliteFile).toBe(path.resolve(cwd, "db/x.db"));
  });

  it.each([
    ["PORT", "not-a-port", /PORT must be a whole number between 1 and 65535/],
    ["PORT", "70000", /PORT must be a whole number/],
    ["DATABASE_URL", "mysql://root@localhost/x", /DATABASE_URL must start with file: \(SQLite\) or postgresql:\/\//],
    ["ANTHROPIC_BASE_URL", "not a url", /ANTHROPIC_BASE_URL must be an http/],
    ["TEAMMEM_DEMO", "maybe", /TEAMMEM_DEMO must be one of/],
    ["TEAMMEM_LOG_LEVEL", "loud", /TEAMMEM_LOG_LEVEL must be debug, info, warn or error/],
    ["TEAMMEM_RECALL_MODEL", "a model; rm -rf", /TEAMMEM_RECALL_MODEL must be a model id/],
    ["TEAMMEM_DATA_DIR", "bad\0dir", /TEAMMEM_DATA_DIR must be a folder path/],
    ["TEAMMEM_ADMIN_EMAIL", "admin@localhost", /TEAMMEM_ADMIN_EMAIL must be an email address/],
    ["TEAMMEM_CLAUDE_HOME_OWNER", "omar..x@acme.example", /TEAMMEM_CLAUDE_HOME_OWNER must be the email/],
    ["TEAMMEM_FAULT_POINT", "after-lunch", /TEAMMEM_FAULT_POINT must be one of after-lock/],
  ])("rejects %s=%j with a message naming the variable", (variable, value, message) => {
    const error = configError({ [variable]: value });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatch(message);
    expect(error.details.variables).toEqual([variable]);
  });

  it("names every bad variable at once", () => {
    const error = configError({ PORT: "x", DATABASE_URL: "nope" });
    expect(error.details.variables).toEqual(expect.arrayContaining(["PORT", "DATABASE_URL"]));
  });

  it("never repeats a secret value in its error message", () => {
    const error = configError({ ANTHROPIC_BASE_URL: "sk-ant-not-a-url-but-a-key" });
    expect(error.message).not.toContain("sk-ant-not-a-url-but-a-key");
  });

  it("reads the CLI's server address from TEAMMEM_SERVER (no trailing slash) and rejects anything but http(s)", () => {
    expect(loadConfig({}, cwd).cliServer).toBeNull();
    expect(loadConfig({ TEAMMEM_SERVER: "https://teammem.example.com/" }, cwd).cliServer).toBe("https://teammem.example.com");
    expect(configError({ TEAMMEM_SERVER: "teammem.example.com:3000" }).details.variables).toEqual(["TEAMMEM_SERVER"]);
  });

  it("bounds requests in flight per kind of work, with defaults sized for a small server and each bound settable", () => {
    expect(loadConfig({}, cwd).admission).toEqual({ maxInFlight: { read: 8, recall: 4, write: 4, approve: 8, auth: 4 }, maxQueued: 16, maxWaitMs: 5000 });
    const config = loadConfig(
      {
        TEAMMEM_MAX_IN_FLIGHT_READ: "32",
        TEAMMEM_MAX_IN_FLIGHT_RECALL: "16",
        TEAMMEM_MAX_IN_FLIGHT_WRITE: "2",
        TEAMMEM_MAX_IN_FLIGHT_APPROVE: "1",
        TEAMMEM_MAX_IN_FLIGHT_AUTH: "3",
        TEAMMEM_MAX_QUEUED: "0",
        TEAMMEM_MAX_QUEUE_WAIT_MS: "250",
      },
      cwd,
    );
    expect(config.admission).toEqual({ maxInFlight: { read: 32, recall: 16, write: 2, approve: 1, auth: 3 }, maxQueued: 0, maxWaitMs: 250 });
  });

  it("reads wait 2 s for a read-model catch-up unless TEAMMEM_CATCH_UP_WAIT_MS says otherwise (0: never wait)", () => {
    expect(loadConfig({}, cwd).catchUpWaitMs).toBe(2_000);
    expect(loadConfig({ TEAMMEM_CATCH_UP_WAIT_MS: "0" }, cwd).catchUpWaitMs).toBe(0);
  });

  it.each([
    ["TEAMMEM_MAX_IN_FLIGHT_RECALL", "0", /TEAMMEM_MAX_IN_FLIGHT_RECALL must be a whole number of requests \(1-10000\)/],
    ["TEAMMEM_MAX_IN_FLIGHT_READ", "lots", /TEAMMEM_MAX_IN_FLIGHT_READ must be a whole number of requests/],
    ["TEAMMEM_MAX_QUEUED", "-1", /TEAMMEM_MAX_QUEUED must be a whole number of requests \(0-10000\)/],
    ["TEAMMEM_MAX_QUEUE_WAIT_MS", "1.5", /TEAMMEM_MAX_QUEUE_WAIT_MS must be a whole number of milliseconds/],
    ["TEAMMEM_CATCH_UP_WAIT_MS", "200000", /TEAMMEM_CATCH_UP_WAIT_MS must be a whole number of milliseconds \(0-120000\)/],
  ])("rejects the server setting %s=%j", (variable, value, message) => {
    const error = configError({ [variable]: value });
    expect(error.message).toMatch(message);
    expect(error.details.variables).toEqual([variable]);
  });
});
