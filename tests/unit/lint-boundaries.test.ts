import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The house rule (STYLE.md): lib/ is the product and runs without Next.js; lib/memdir/ is the
// format and depends on nothing else in lib/. The lint config enforces both.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? "fatal");
}

describe("lint boundaries", () => {
  it.each([
    ['import { NextResponse } from "next/server";', "lib/review/x.ts"],
    ['import { useState } from "react";', "lib/review/x.ts"],
    ['import { handle } from "@/app/_server/http";', "lib/review/x.ts"],
    ['import { handle } from "../../app/_server/http";', "lib/review/x.ts"],
    ['import { loadConfig } from "../config";', "lib/memdir/x.ts"],
  ])("rejects %s in %s", async (code, filePath) => {
    expect(await ruleIds(code, filePath)).toContain("no-restricted-imports");
  });

  it("allows lib/ to import lib/ and app/ to import next", async () => {
    expect(await ruleIds('import { loadConfig } from "../config";\nexport const x = loadConfig;\n', "lib/review/x.ts")).toEqual([]);
    expect(await ruleIds('import Link from "next/link";\nexport const x = Link;\n', "app/x.ts")).toEqual([]);
    expect(await ruleIds('import { parseMemoryHeader } from "./frontmatter";\nexport const x = parseMemoryHeader;\n', "lib/memdir/x.ts")).toEqual([]);
  });
});
