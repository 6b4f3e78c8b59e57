import { describe, expect, it } from "vitest";
import { extractCitations } from "@/lib/stale/extract-citations";

describe("extractCitations", () => {
  it("finds paths in prose (with :line), inline code and code blocks, but not URLs, fractions or and/or", () => {
    const found = extractCitations([
      "The ledger is in src/payments/ledger.go:42 and/or `lib/util.ts`; half is 1/2.",
      "Docs: https://example.com/docs/a/b.html and /etc/hosts.conf are not the repository's.",
      "```",
      "node scripts/run-import.mjs --all",
      "```",
      "The `config/` folder and `README.md` matter.",
    ].join("\n"));
    expect(found.paths).toEqual([
      { path: "src/payments/ledger.go", line: 42, isFolder: false },
      { path: "lib/util.ts", isFolder: false },
      { path: "scripts/run-import.mjs", isFolder: false },
      { path: "config", isFolder: true },
    ]);
    expect(found.fileNames).toEqual(["README.md"]);
  });

  it("takes symbols that look like code and leaves plain words alone", () => {
    const found = extractCitations("Call `parseThing()` or `LedgerService.post` or `$scope`; `main` and `npm` are words; saveAll() runs last; `snake_case_name` too.");
    expect(found.symbols.sort()).toEqual(["$scope", "parseThing", "post", "saveAll", "snake_case_name"].sort());
  });

  it("leaves host names, e-mail addresses and product names in backticks alone, and keeps code next to them", () => {
    const found = extractCitations([
      "`charge()` calls `api.stripe.com` and `vault.corp.internal`; failures page `payments-oncall@acme.example` or `ops@acme.example`.",
      "`charge()` writes to `PostgreSQL`; CI runs on `GitHub` Actions, developers use `macOS`, `iOS`, `iPhone`, `JavaScript`, `ASP.NET`.",
      "Still code: `parseThing`, `parseJSON`, `helperFn`, `PaymentIntentService`, `LedgerService.post`, `config.get`, `LedgerService()`, `snake_case_name`.",
    ].join("\n"));
    expect(found.symbols.sort()).toEqual(["charge", "parseThing", "parseJSON", "helperFn", "PaymentIntentService", "post", "get", "LedgerService", "snake_case_name"].sort());
  });

  it("caps each kind at 200 and says so", () => {
    const found = extractCitations(Array.from({ length: 500 }, (_, index) => `src/f${index}.ts`).join("\n"));
    expect(found.paths).toHaveLength(200);
    expect(found.isTruncated).toBe(true);
  });
});
