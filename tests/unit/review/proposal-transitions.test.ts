import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertTransition, canTransition } from "@/lib/review/proposal-transitions";

describe("the proposal lifecycle", () => {
  it("follows the issue's path and its side exits", () => {
    expect(canTransition(null, "submitted")).toBe(true);
    expect(canTransition("submitted", "in_review")).toBe(true);
    expect(canTransition("in_review", "approved")).toBe(true);
    expect(canTransition("approved", "committed")).toBe(true);
    for (const exit of ["rejected", "withdrawn", "superseded"] as const) expect(canTransition("in_review", exit)).toBe(true);
    for (const reopenable of ["rejected", "withdrawn", "commit_failed"] as const) expect(canTransition(reopenable, "submitted")).toBe(true);
  });

  it("refuses moves that would skip review or reopen what is done, with CONFLICT", () => {
    expect(canTransition("blocked_secret", "approved")).toBe(false);
    expect(canTransition("committed", "submitted")).toBe(false);
    expect(canTransition("submitted", "committed")).toBe(false);
    expect(canTransition("committed", "in_review")).toBe(false);
    expect(() => assertTransition("committed", "rejected")).toThrowError(AppError);
    expect(() => assertTransition("committed", "rejected")).toThrowError(/A proposal that is committed cannot be rejected/);
  });
});
