/**
 * The Claude Code hooks `teammem hooks install` adds, in Claude Code's settings format
 * (`hooks.<Event>` → matcher groups → `{type: "command", command, timeout}`; timeout in seconds).
 * An installed hook is recognised by its command's words (`isTeammemHookCommand`), so uninstall
 * removes exactly these and never another tool's hook.
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

/**
 * Whether a settings entry's command runs this hook: `teammem` (or a path to it) followed by the
 * hook's own words, in any order after the subcommand, with options a member added
 * (`teammem recall-hook --budget-ms 1500`). An edited hook is still the one install added: it is
 * not added a second time (two recall hooks would give every prompt the same memories twice)
 * and uninstall removes it.
 */
export function isTeammemHookCommand(command: string, hook: Pick<TeammemHook, "command">): boolean {
  const [program, subcommand, ...options] = command.trim().split(/\s+/);
  const [, ownSubcommand, ...ownOptions] = hook.command.split(" ");
  if (program === undefined || !/(^|\/)teammem$/.test(program) || subcommand !== ownSubcommand) return false;
  return ownOptions.every((option) => options.includes(option));
}
