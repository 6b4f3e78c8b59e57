import { describe, expect, it } from "vitest";
import { addTeammemHooks, keepOwnContainers, listTeammemHooks, removeTeammemHooks } from "@/lib/hooks/edit-settings-hooks";
import { PROMPT_RECALL_COMMAND, SESSION_SYNC_COMMAND, TEAMMEM_HOOKS } from "@/lib/hooks/teammem-hooks";

const FILE = "settings.json";

/** Settings as a member may already have them: another tool's hooks, permissions, env. */
function existingSettings() {
  return {
    model: "opus",
    permissions: { allow: ["Bash(npm test)"] },
    env: { FOO: "bar" },
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "other-tool prompt", timeout: 5 }] }],
      PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "prettier --write" }] }],
    },
  };
}

describe("adding teammem's hooks to Claude Code settings", () => {
  it("adds one matcher group per event in Claude Code's format and keeps everything else", () => {
    const before = existingSettings();
    const { settings, changes } = addTeammemHooks(before, TEAMMEM_HOOKS, FILE);
    expect(changes).toEqual([`SessionStart: ${SESSION_SYNC_COMMAND}`, `UserPromptSubmit: ${PROMPT_RECALL_COMMAND}`]);
    expect(settings).toMatchObject({ model: "opus", permissions: { allow: ["Bash(npm test)"] }, env: { FOO: "bar" } });
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(hooks.PostToolUse).toEqual(before.hooks.PostToolUse);
    expect(hooks.UserPromptSubmit).toEqual([
      { hooks: [{ type: "command", command: "other-tool prompt", timeout: 5 }] },
      { hooks: [{ type: "command", command: PROMPT_RECALL_COMMAND, timeout: 3 }] },
    ]);
    expect(hooks.SessionStart).toEqual([{ matcher: "startup|resume|clear", hooks: [{ type: "command", command: SESSION_SYNC_COMMAND, timeout: 10 }] }]);
    expect(before).toEqual(existingSettings()); // the input is not modified
  });

  it("adds nothing the second time, wherever the hook sits", () => {
    const once = addTeammemHooks(existingSettings(), TEAMMEM_HOOKS, FILE).settings;
    const twice = addTeammemHooks(once, TEAMMEM_HOOKS, FILE);
    expect(twice.changes).toEqual([]);
    expect(twice.settings).toEqual(once);
    // A member who moved our entry into another group by hand still has it once.
    const moved = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "x" }, { type: "command", command: PROMPT_RECALL_COMMAND }] }] } };
    expect(addTeammemHooks(moved, TEAMMEM_HOOKS, FILE).changes).toEqual([`SessionStart: ${SESSION_SYNC_COMMAND}`]);
  });

  it("starts from empty settings", () => {
    const { settings } = addTeammemHooks({}, TEAMMEM_HOOKS, FILE);
    expect(listTeammemHooks(settings, TEAMMEM_HOOKS, FILE)).toHaveLength(2);
  });

  it("refuses settings whose shape it cannot merge into, naming what is wrong", () => {
    expect(() => addTeammemHooks([], TEAMMEM_HOOKS, FILE)).toThrow(/does not hold a JSON object/);
    expect(() => addTeammemHooks({ hooks: [] }, TEAMMEM_HOOKS, FILE)).toThrow(/"hooks" is not an object/);
    expect(() => addTeammemHooks({ hooks: { SessionStart: {} } }, TEAMMEM_HOOKS, FILE)).toThrow(/"hooks.SessionStart" is not a list/);
  });
});

describe("removing teammem's hooks", () => {
  it("gives back exactly the settings from before install", () => {
    const installed = addTeammemHooks(existingSettings(), TEAMMEM_HOOKS, FILE).settings;
    const { settings, changes } = removeTeammemHooks(installed, TEAMMEM_HOOKS, FILE);
    expect(changes).toHaveLength(2);
    expect(settings).toEqual(existingSettings());
    expect(removeTeammemHooks({}, TEAMMEM_HOOKS, FILE).settings).toEqual({});
    const fromEmpty = addTeammemHooks({}, TEAMMEM_HOOKS, FILE).settings;
    expect(removeTeammemHooks(fromEmpty, TEAMMEM_HOOKS, FILE).settings).toEqual({});
  });

  it("removes only our entry from a group it shares, and leaves groups and lists that were empty before", () => {
    const shared = {
      hooks: {
        UserPromptSubmit: [{ matcher: "", hooks: [{ type: "command", command: "other-tool prompt" }, { type: "command", command: PROMPT_RECALL_COMMAND, timeout: 3 }] }],
        SessionStart: [],
        Stop: [{ hooks: [] }],
      },
    };
    const { settings, changes } = removeTeammemHooks(shared, TEAMMEM_HOOKS, FILE);
    expect(changes).toEqual([`UserPromptSubmit: ${PROMPT_RECALL_COMMAND}`]);
    expect(settings).toEqual({ hooks: { UserPromptSubmit: [{ matcher: "", hooks: [{ type: "command", command: "other-tool prompt" }] }], SessionStart: [], Stop: [{ hooks: [] }] } });
  });

  it("does not touch a command that only resembles ours", () => {
    const similar = {
      hooks: {
        UserPromptSubmit: [{ hooks: ["teammem recall-hooks", "echo teammem recall-hook", "my-teammem recall-hook", "teammem recall"].map((command) => ({ type: "command", command })) }],
        SessionStart: [{ hooks: [{ type: "command", command: "teammem sync" }] }],
      },
    };
    expect(removeTeammemHooks(similar, TEAMMEM_HOOKS, FILE)).toEqual({ settings: similar, changes: [], removed: [] });
    expect(addTeammemHooks(similar, TEAMMEM_HOOKS, FILE).changes).toHaveLength(2);
  });

  it("knows its hook when the member added options to it: not added again, and removed", () => {
    const edited = {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `${PROMPT_RECALL_COMMAND} --budget-ms 1500` }] }],
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "/usr/local/bin/teammem sync --project acme --quiet" }] }],
      },
    };
    expect(addTeammemHooks(edited, TEAMMEM_HOOKS, FILE).changes).toEqual([]);
    expect(listTeammemHooks(edited, TEAMMEM_HOOKS, FILE)).toEqual([`SessionStart: ${SESSION_SYNC_COMMAND}`, `UserPromptSubmit: ${PROMPT_RECALL_COMMAND}`]);
    const removal = removeTeammemHooks(edited, TEAMMEM_HOOKS, FILE);
    expect(removal.changes).toEqual(["SessionStart: /usr/local/bin/teammem sync --project acme --quiet", `UserPromptSubmit: ${PROMPT_RECALL_COMMAND} --budget-ms 1500`]);
    expect(removal.removed).toEqual([`SessionStart: ${SESSION_SYNC_COMMAND}`, `UserPromptSubmit: ${PROMPT_RECALL_COMMAND}`]);
    expect(removal.settings).toEqual({});
  });

  it("keeps the `hooks` object and event lists install did not create, though the removal empties them", () => {
    const before = { hooks: { SessionStart: [] } };
    const install = addTeammemHooks(before, TEAMMEM_HOOKS, FILE);
    expect(install.created).toEqual(["hooks.UserPromptSubmit"]);
    expect(removeTeammemHooks(install.settings, TEAMMEM_HOOKS, FILE, install.created).settings).toEqual(before);
    const fromEmpty = addTeammemHooks({ hooks: {} }, TEAMMEM_HOOKS, FILE);
    expect(removeTeammemHooks(fromEmpty.settings, TEAMMEM_HOOKS, FILE, fromEmpty.created).settings).toEqual({ hooks: {} });
    const fromNothing = addTeammemHooks({}, TEAMMEM_HOOKS, FILE);
    expect(fromNothing.created).toEqual(["hooks", "hooks.SessionStart", "hooks.UserPromptSubmit"]);
    expect(removeTeammemHooks(fromNothing.settings, TEAMMEM_HOOKS, FILE, fromNothing.created).settings).toEqual({});
  });

  it("counts as install's own only the recorded containers that still hold one of its hooks", () => {
    const installed = addTeammemHooks({}, TEAMMEM_HOOKS, FILE);
    const recorded = installed.created;
    expect(keepOwnContainers(installed.settings, TEAMMEM_HOOKS, FILE, recorded)).toEqual(recorded);
    // The owner replaced the file since: its empty `hooks` object is theirs.
    expect(keepOwnContainers({ hooks: {} }, TEAMMEM_HOOKS, FILE, recorded)).toEqual([]);
  });
});
