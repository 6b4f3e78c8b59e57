import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REFUSES_METHOD } from "@/app/_server/other-methods";

// A method an endpoint does not take is answered like every other API error: JSON naming what it
// does take, with the Allow header (Next.js alone answers an empty 405).
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & Record<symbol, unknown>;

function routeFiles(dir = "app/api"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

describe("methods an API endpoint does not take", () => {
  it("every route file answers all five methods, its own or with a refusal", async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(25);
    for (const file of files) {
      const module = (await import(path.resolve(file))) as Record<string, Handler | undefined>;
      for (const method of METHODS) expect(typeof module[method], `${method} in ${file}`).toBe("function");
    }
  });

  it("a refused method is a JSON 405 naming the methods taken, with Allow", async () => {
    const checked: string[] = [];
    for (const file of routeFiles().filter((candidate) => !candidate.includes("[..."))) {
      const module = (await import(path.resolve(file))) as Record<string, Handler | undefined>;
      const taken = METHODS.filter((method) => !module[method]![REFUSES_METHOD]);
      expect(taken.length, file).toBeGreaterThan(0);
      // OPTIONS names the same methods (Next.js's own would count the refusals as taken).
      const options = await module.OPTIONS!(new Request("http://localhost/api/x", { method: "OPTIONS" }), { params: Promise.resolve({}) });
      expect(options.status, file).toBe(204);
      expect(options.headers.get("allow")?.split(", ").sort(), file).toEqual([...taken, ...(taken.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort());
      for (const method of METHODS.filter((candidate) => module[candidate]![REFUSES_METHOD])) {
        const response = await module[method]!(new Request("http://localhost/api/x", { method, ...(method === "GET" ? {} : { body: "{}" }) }), { params: Promise.resolve({}) });
        expect(response.status, `${method} ${file}`).toBe(405);
        const allow = (response.headers.get("allow") ?? "").split(", ");
        expect(allow).toEqual(expect.arrayContaining([...taken, "OPTIONS"]));
        expect(allow).not.toContain(method);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("METHOD_NOT_ALLOWED");
        expect(body.error.message).toBe(`${method} is not supported here: this endpoint takes ${taken.join(", ")}.`);
        checked.push(`${method} ${file}`);
      }
    }
    expect(checked.length).toBeGreaterThan(60);
  });

  it("the auth endpoints answer per endpoint: 405 with the one method it takes, 404 for a path that names none", async () => {
    const auth = (await import("@/app/api/auth/[...all]/route")) as unknown as Record<string, Handler>;
    const call = (method: string, endpoint: string) =>
      auth[method]!(new Request(`http://localhost/api/auth/${endpoint}`, { method, ...(method === "GET" || method === "OPTIONS" ? {} : { body: "{}", headers: { "content-type": "application/json" } }) }), { params: Promise.resolve({}) });
    for (const [method, endpoint, allow] of [["GET", "sign-in/email", "OPTIONS, POST"], ["GET", "sign-out", "OPTIONS, POST"], ["DELETE", "sign-in/email", "OPTIONS, POST"], ["POST", "get-session", "GET, HEAD, OPTIONS"]] as const) {
      const response = await call(method, endpoint);
      expect(response.status, `${method} ${endpoint}`).toBe(405);
      expect(response.headers.get("allow"), `${method} ${endpoint}`).toBe(allow);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^\w+ is not supported here: this endpoint takes (GET|POST)\.$/);
    }
    expect((await call("OPTIONS", "get-session")).headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    for (const method of ["OPTIONS", "DELETE", "GET"]) expect((await call(method, "update-user")).status, method).toBe(404);
  });
});
