/**
 * The Claude Code hooks `teammem hooks install` adds, in Claude Code's settings format
 * (`hooks.<Event>` → matcher groups → `{type: "command", command, timeout}`; timeout in seconds).
 * An installed hook is recognised by its exact command, so uninstall removes exactly these and
 * never another tool's hook.
 */
export type TeammemHook = {
  event: "SessionStart" | "UserPromptSubmit";
  /** SessionStart's matcher selects the session source; UserPromptSubmit takes none. */
  matcher?: string;
  command: string;
  /** Claude Code's own hard cap (seconds); the commands keep well inside it by themselves. */
  timeoutSeconds: number;
  purpose: string;
};

export const SESSION_SYNC_COMMAND = "teammem sync --quiet";
export const PROMPT_RECALL_COMMAND = "teammem recall-hook";

export const TEAMMEM_HOOKS: readonly TeammemHook[] = [
  {
    event: "SessionStart",
    // Not on "compact": a compaction happens mid-session and the store rarely moved since.
    matcher: "startup|resume|clear",
    command: SESSION_SYNC_COMMAND,
    timeoutSeconds: 10,
    purpose: "brings memory/team/ in step with the team store when a session starts",
  },
  {
    event: "UserPromptSubmit",
    command: PROMPT_RECALL_COMMAND,
    timeoutSeconds: 3,
    purpose: "gives the agent the team memories the server selects for each prompt",
  },
];

/** How a hook is named in messages and in install's record: `Event: command`. */
export function hookLabel(hook: Pick<TeammemHook, "event" | "command">): string {
  return `${hook.event}: ${hook.command}`;
}
