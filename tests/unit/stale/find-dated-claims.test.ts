import { describe, expect, it } from "vitest";
import { findDatedClaims } from "@/lib/stale/find-dated-claims";

const WRITTEN = new Date("2026-11-02T09:00:00Z");

describe("findDatedClaims", () => {
  it("takes dates phrased as a deadline or window, once per date, and leaves records of the past alone", () => {
    const claims = findDatedClaims("Checkout code freeze from 2025-12-15 through 2026-01-05.\nFrozen from 2025-12-15 through 2026-01-05.\nShipped on 2025-03-01. Due by March 3, 2027.", WRITTEN);
    expect(claims.map((claim) => claim.date)).toEqual(["2025-12-15", "2026-01-05", "2027-03-03"]);
  });

  it("resolves relative dates against the time the file was written", () => {
    expect(findDatedClaims("The demo is next Thursday.", WRITTEN)).toEqual([{ kind: "relative", date: "2026-11-05", phrase: "next Thursday", line: 1 }]);
  });
});
