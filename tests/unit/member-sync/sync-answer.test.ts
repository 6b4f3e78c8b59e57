import { describe, expect, it } from "vitest";
import { SyncAnswer, SyncFile } from "@/lib/member-sync/sync-answer";

const blob = "a".repeat(40);
const good = { path: "project_retry.md", content: "---\nname: Retry\n---\nbody\n", blob, masked: false, changedAt: "2026-11-01T10:00:00.000Z", changedCommit: "b".repeat(40) };
const answer = (files: unknown[]) => ({ projectId: "p", head: blob, since: null, isUnchanged: false, full: true, files, removed: [], page: 1, pageCount: 1, proposals: [] });

describe("SyncAnswer files (checked by hand for speed)", () => {
  it("accepts exactly the files SyncFile accepts, and gives the same values", () => {
    const variants: unknown[] = [
      good,
      { ...good, blob: "c".repeat(64) },
      { ...good, changedAt: "2026-11-01T10:00:00Z" },
      { ...good, extra: "dropped" },
      { ...good, path: "" },
      { ...good, path: "x".repeat(301) },
      { ...good, content: 7 },
      { ...good, blob: "A".repeat(40) },
      { ...good, blob: "a".repeat(41) },
      { ...good, masked: "false" },
      { ...good, changedAt: "not a time" },
      { ...good, changedCommit: null },
      { path: good.path },
      null,
      "file",
      [good],
    ];
    for (const file of variants) {
      const byHand = SyncAnswer.safeParse(answer([file]));
      const byZod = SyncFile.safeParse(file);
      expect(byHand.success, JSON.stringify(file)).toBe(byZod.success);
      if (byHand.success && byZod.success) expect(byHand.data.files[0]).toEqual(byZod.data);
    }
  });

  it("rejects the whole answer when one file of many is malformed", () => {
    const files = Array.from({ length: 50 }, (_, index) => ({ ...good, path: `project_${index}.md` }));
    expect(SyncAnswer.safeParse(answer(files)).success).toBe(true);
    files[37] = { ...good, blob: "not-a-blob" };
    expect(SyncAnswer.safeParse(answer(files)).success).toBe(false);
  });
});
