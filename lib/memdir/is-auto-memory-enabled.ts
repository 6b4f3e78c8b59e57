import type { Env } from "./resolve-config-home";

export type AutoMemoryContext = {
  env: Env;
  /** Claude Code started with `--bare`. */
  isBare?: boolean;
  /** Remote mode without persistent storage: nothing written would survive. */
  isRemoteWithoutStorage?: boolean;
  /** `autoMemoryEnabled` from the merged settings, when set. */
  autoMemoryEnabled?: boolean;
};

export type AutoMemoryState = { isEnabled: boolean; reason: string };

/** P6: auto memory is on unless one of these says otherwise, checked in this order. */
export function isAutoMemoryEnabled(context: AutoMemoryContext): AutoMemoryState {
  if (isTruthy(context.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)) return { isEnabled: false, reason: "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set" };
  if (context.isBare) return { isEnabled: false, reason: "started with --bare" };
  if (context.isRemoteWithoutStorage) return { isEnabled: false, reason: "remote mode without persistent storage" };
  if (context.autoMemoryEnabled === false) return { isEnabled: false, reason: "autoMemoryEnabled is false in settings" };
  return { isEnabled: true, reason: context.autoMemoryEnabled === true ? "autoMemoryEnabled is true in settings" : "enabled by default" };
}

/** T1: team memory needs auto memory. */
export function isTeamMemoryEnabled(context: AutoMemoryContext): boolean {
  return isAutoMemoryEnabled(context).isEnabled;
}

// Claude Code treats the usual spellings of "yes" as set; "0" / "false" leave memory on.
function isTruthy(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no", "off"].includes(value.trim().toLowerCase());
}
