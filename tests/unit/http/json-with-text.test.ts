import { describe, expect, it } from "vitest";
import { json, jsonWithText } from "@/app/_server/http";

// The recall answer joins a cached JSON text to its own part: it must read exactly as the
// plain JSON answer would, for every text and body.
const texts = ["", "plain", 'quotes " and \\ backslashes', "lines\nand\ttabs\u0000and NUL", "unicode é 漢字 🚀 and a lone \ud800 surrogate", "x".repeat(60_000)];
const bodies: Record<string, unknown>[] = [{}, { selector: "local", selected: [{ file: "a.md", content: "b" }], latencyMs: 3 }, { manifest: "an older value", other: null }];

describe("jsonWithText", () => {
  for (const text of texts) {
    for (const body of bodies) {
      it(`reads as json() does: text of ${text.length} characters, body with ${Object.keys(body).length} keys`, async () => {
        const joined = jsonWithText(body, "manifest", text);
        const plain = json({ ...body, manifest: text });
        expect(joined.headers.get("content-type")).toMatch(/^application\/json/);
        expect(joined.headers.get("cache-control")).toBe("no-store");
        expect(JSON.parse(await joined.text())).toEqual(JSON.parse(await plain.text()));
      });
    }
  }

  it("gives the same bytes for the same text asked again", async () => {
    const first = await jsonWithText({ a: 1 }, "manifest", `m ${"y".repeat(1000)}`).text();
    const second = await jsonWithText({ a: 1 }, "manifest", `m ${"y".repeat(1000)}`).text();
    expect(second).toBe(first);
  });

  it("answers with the status asked", () => {
    expect(jsonWithText({}, "manifest", "x", 201).status).toBe(201);
  });
});
