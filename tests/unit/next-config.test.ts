import { describe, expect, it } from "vitest";
import { buildCustomRoute } from "next/dist/lib/build-custom-route";
import nextConfig from "../../next.config";

// The headers a response to `pathname` gets, matched the way Next.js compiles next.config headers.
async function headersFor(pathname: string): Promise<Record<string, string>> {
  const rules = (await nextConfig.headers?.()) ?? [];
  const found: Record<string, string> = {};
  for (const rule of rules) {
    const { regex } = buildCustomRoute("header", rule);
    if (!new RegExp(regex).test(pathname)) continue;
    for (const header of rule.headers) found[header.key.toLowerCase()] = header.value;
  }
  return found;
}

describe("frame protection headers (next.config.ts)", () => {
  it.each([
    "/",
    "/review/7f3c2a",
    "/review/sessions/s1",
    "/memories",
    "/memories/team/acme-checkout/project_outbox_decision.md",
    "/memories/private/-home-omar-src/MEMORY.md",
    "/projects/acme-checkout",
    "/settings",
    "/sign-in",
    "/no-such-page",
    "/api/me",
    "/api/projects/acme-checkout/proposals/p1/approve",
  ])("%s may not be framed by any site", async (pathname) => {
    const headers = await headersFor(pathname);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toBe("frame-ancestors 'none'");
  });
});
