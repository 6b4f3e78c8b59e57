import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";

// Built at run time so no literal credential sits in the repository.
const githubToken = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
const password = ["Zq8", "vR2pL7xW", "k3M9"].join("-");

function captureLines(write: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    write();
  } finally {
    spy.mockRestore();
  }
  return lines.join("").split("\n").filter(Boolean);
}

describe("log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes one JSON line with no secret value, wherever the secret sits in the fields", () => {
    const [line] = captureLines(() =>
      log("warn", "store.push_failed", { message: `remote said: token ${githubToken} refused`, details: { url: `postgres://app:${password}@db.internal/app` }, attempts: [1, 2] }),
    );
    const parsed = JSON.parse(line!) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: "warn", event: "store.push_failed", attempts: [1, 2] });
    expect(line).not.toContain(githubToken.slice(4));
    expect(line).not.toContain(password);
    expect(String(parsed.message)).toContain("[REDACTED:github-classic-token");
  });
});
