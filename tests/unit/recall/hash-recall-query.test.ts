import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashRecallQuery } from "@/lib/recall/hash-recall-query";

const installation = (name: string) => ({ authSecret: `${name}-secret-`.padEnd(40, "x"), dataDir: `/srv/${name}` });

describe("the recall log's hash of a query", () => {
  it("cannot be matched against a guessed prompt without the instance secret", () => {
    const query = "what is the staging deploy password";
    const hash = hashRecallQuery(installation("a"), query);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(createHash("sha256").update(query, "utf8").digest("hex"));
    expect(hashRecallQuery(installation("b"), query)).not.toBe(hash);
  });

  it("is the same for the same prompt on one installation, so a repeated prompt shows as one", () => {
    expect(hashRecallQuery(installation("a"), "deploy steps")).toBe(hashRecallQuery(installation("a"), "deploy steps"));
    expect(hashRecallQuery(installation("a"), "deploy steps")).not.toBe(hashRecallQuery(installation("a"), "deploy step"));
  });
});
