import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { promptHookStateFile, readPromptHookState, writePromptHookState } from "@/lib/hooks/prompt-hook-state";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();
const NOW = new Date("2026-12-01T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describe("the prompt hook's state file", () => {
  it("sits beside the memory directory, never inside it", () => {
    expect(promptHookStateFile("/h/.claude/projects/-repo/memory")).toBe("/h/.claude/projects/-repo/memory.teammem-recall-hook.json");
  });

  it("reads a missing or damaged file as empty (it only saves work)", async () => {
    const dir = await tempDir();
    expect(await readPromptHookState(path.join(dir, "missing.json"))).toEqual({ sessions: {}, projects: {} });
    await writeFile(path.join(dir, "damaged.json"), "{ not json");
    expect(await readPromptHookState(path.join(dir, "damaged.json"))).toEqual({ sessions: {}, projects: {} });
  });

  it("drops sessions idle for a week, keeps the 100 most recent, and writes atomically (no temporary file left)", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "nested", "state.json");
    const sessions = Object.fromEntries(Array.from({ length: 120 }, (_, index) => [`s${index}`, { surfaced: [`m${index}.md`], injectedBytes: index, updatedAt: daysAgo(index / 20) }]));
    sessions.old = { surfaced: ["x.md"], injectedBytes: 1, updatedAt: daysAgo(8) };
    await writePromptHookState(file, { sessions, projects: { "http://s github.com/a/b": { projectId: "p", checkedAt: NOW.toISOString() } } }, NOW);
    const state = await readPromptHookState(file);
    expect(Object.keys(state.sessions)).toHaveLength(100);
    expect(state.sessions.old).toBeUndefined();
    expect(state.sessions.s0).toEqual({ surfaced: ["m0.md"], injectedBytes: 0, updatedAt: daysAgo(0) });
    expect(state.sessions.s119).toBeUndefined(); // the least recent beyond 100
    expect(state.projects["http://s github.com/a/b"]?.projectId).toBe("p");
    expect(await readdir(path.dirname(file))).toEqual(["state.json"]);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(state);
  });

  it("remembers a session whatever its id, __proto__ included", async () => {
    const file = path.join(await tempDir(), "state.json");
    const state = await readPromptHookState(file);
    state.sessions["__proto__"] = { surfaced: ["a.md"], injectedBytes: 1, updatedAt: NOW.toISOString() };
    await writePromptHookState(file, state, NOW);
    const again = await readPromptHookState(file);
    expect(again.sessions["__proto__"]).toEqual({ surfaced: ["a.md"], injectedBytes: 1, updatedAt: NOW.toISOString() });
  });
});
