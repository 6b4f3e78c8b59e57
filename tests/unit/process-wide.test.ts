import { describe, expect, it, vi } from "vitest";

/**
 * Next.js bundles a module once per layer (API routes, pages, instrumentation.ts). These load a
 * module twice, as two bundles would, and check that what must be shared is.
 */
async function freshCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe("process-wide state across copies of a module", () => {
  it("gives every copy the same value, created once", async () => {
    const first = await freshCopy(() => import("@/lib/process-wide"));
    const second = await freshCopy(() => import("@/lib/process-wide"));
    expect(first).not.toBe(second); // two module instances, as two bundles have
    let created = 0;
    const a = first.processWide("test.sharedMap", () => ({ id: ++created }));
    const b = second.processWide("test.sharedMap", () => ({ id: ++created }));
    expect(b).toBe(a);
    expect(created).toBe(1);
  });

  it("recognises an AppError raised by another copy of lib/errors.ts", async () => {
    const raising = await freshCopy(() => import("@/lib/errors"));
    const catching = await freshCopy(() => import("@/lib/errors"));
    expect(catching.AppError).not.toBe(raising.AppError);
    const error = new raising.AppError("STORE_UNAVAILABLE", "The team store cannot be reached.");
    expect(catching.isAppError(error)).toBe(true);
    expect(catching.isAppError(new Error("plain"))).toBe(false);
    expect(catching.isAppError({ code: "STORE_UNAVAILABLE", message: "looks like one" })).toBe(false);
  });

  it("hands a commit announced by one copy to the listeners another copy registered (the duplicate finder follows it)", async () => {
    const warmUp = await freshCopy(() => import("@/lib/read-model/own-commit-listeners"));
    const routes = await freshCopy(() => import("@/lib/read-model/own-commit-listeners"));
    const heard: string[] = [];
    warmUp.onOwnCommit((own) => heard.push(own.commit));
    routes.announceOwnCommit({ parent: "a".repeat(40), commit: "b".repeat(40), at: new Date(0), author: { name: "Lena", email: "lena@acme.example" }, subject: "s", projectId: "p", path: "x.md", blob: null, content: null });
    expect(heard).toEqual(["b".repeat(40)]);
  });
});
