import { describe, expect, it } from "vitest";
import { parseStoredChecks } from "@/lib/review/stored-checks";

describe("stored checks", () => {
  it("reads a missing or broken column as empty checks instead of failing the queue", () => {
    expect(parseStoredChecks("{}").checks).toMatchObject({ lint: [], secrets: [], duplicates: [], blockers: [] });
    expect(parseStoredChecks("not json")).toMatchObject({ name: null, type: null, isRetirement: false, conflict: null });
  });
});
