import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApiRouteMethods } from "@/app/_server/api-route-methods";

// What scripts/serve.ts names in a 405 to TRACE, PROPFIND, …: the methods the route files under
// app/api take, found for a path the way Next.js routes it.
describe("the methods an API path's route takes", () => {
  it("are read from the route files, preferring fixed segments, then [id], then catch-alls", async () => {
    const methodsOf = createApiRouteMethods(path.resolve("app/api"));
    expect(await methodsOf("/api/health")).toEqual(["GET"]);
    expect(await methodsOf("/api/health/")).toEqual(["GET"]);
    expect(await methodsOf("/api/projects/acme-checkout")).toEqual(["GET", "PATCH"]);
    expect(await methodsOf("/api/projects/acme-checkout/proposals/bulk-approve")).toEqual(["POST"]);
    expect(await methodsOf("/api/projects/acme-checkout/proposals/p1")).toEqual(["GET"]);
    expect(await methodsOf("/api/projects/acme-checkout/members/u1")).toEqual(["DELETE"]);
    expect(await methodsOf("/api/auth/sign-in/email")).toEqual(["GET", "POST"]);
    expect(await methodsOf("/api/nope")).toBeNull();
    expect(await methodsOf("/api/projects/acme-checkout/nope/deeper")).toBeNull();
  }, 60_000);
});
