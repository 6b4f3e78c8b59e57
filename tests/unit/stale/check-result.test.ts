import { describe, expect, it } from "vitest";
import { parseCheckResult, serializeCheckResult, type CheckResult } from "@/lib/stale/check-result";

describe("the stale check cache's rows", () => {
  const result: CheckResult = { code: null, claims: [{ kind: "deadline", date: "2024-01-15", phrase: "until 2024-01-15", line: 9 }], citationCount: 0, isTruncated: false };

  it("read back what was saved", () => {
    expect(parseCheckResult(serializeCheckResult(result))).toEqual(result);
  });

  it("a row saved by an older check (other line numbers, another header) is checked again, not served", () => {
    const { version: _version, ...older } = JSON.parse(serializeCheckResult(result)) as Record<string, unknown>;
    expect(parseCheckResult(JSON.stringify(older))).toBeNull();
    for (const version of [1, 2, 3]) expect(parseCheckResult(JSON.stringify({ ...older, version }))).toBeNull();
  });
});
