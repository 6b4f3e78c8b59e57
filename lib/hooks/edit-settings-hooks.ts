import { AppError } from "../errors";
import { hookLabel, isTeammemHookCommand, type TeammemHook } from "./teammem-hooks";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type SettingsEdit = {
  /** The settings to write; the input is never modified. */
  settings: JsonObject;
  /** Hooks added (install) or removed (uninstall), as `Event: command`. */
  changes: string[];
};

/** An install also says what it created to hold the hooks, as JSON paths (`hooks`, `hooks.SessionStart`). */
export type SettingsAddition = SettingsEdit & { created: string[] };

/**
 * Adds each hook that is not there yet as a matcher group of its own at the end of its event's
 * list. Everything else in the settings, other tools' hooks included, stays as it was; a hook
 * already present (same event, same command, wherever it sits) is not added again.
 */
export function addTeammemHooks(settings: unknown, hooks: readonly TeammemHook[], file: string): SettingsAddition {
  const next = structuredClone(asSettingsObject(settings, file));
  const changes: string[] = [];
  const created: string[] = [];
  for (const hook of hooks) {
    const hooksByEvent = readHooksObject(next, file);
    const groups = readEventGroups(hooksByEvent, hook.event, file);
    if (groups.some((group) => groupCommands(group).some((command) => isTeammemHookCommand(command, hook)))) continue;
    const entry: JsonObject = { type: "command", command: hook.command, timeout: hook.timeoutSeconds };
    groups.push(hook.matcher === undefined ? { hooks: [entry] } : { matcher: hook.matcher, hooks: [entry] });
    if (next.hooks === undefined) created.push("hooks");
    if (hooksByEvent[hook.event] === undefined) created.push(`hooks.${hook.event}`);
    hooksByEvent[hook.event] = groups;
    next.hooks = hooksByEvent;
    changes.push(hookLabel(hook));
  }
  return { settings: next, changes, created };
}

/**
 * Removes exactly the entries running one of these hooks (its command as install wrote it, or
 * with options the member added). A group is removed when that
 * removal empties it (install adds a group of its own). An event list or the `hooks` object
 * emptied by it is removed only when install created it (`createdByInstall`, JSON paths), so
 * one the settings held before (`"hooks": {}` included) stays; without a record of the install
 * (null), whatever the removal empties goes. One that was empty before is always left alone.
 */
export function removeTeammemHooks(settings: unknown, hooks: readonly TeammemHook[], file: string, createdByInstall: readonly string[] | null = null): SettingsEdit & { removed: string[] } {
  const next = structuredClone(asSettingsObject(settings, file));
  const changes: string[] = [];
  const removed = new Set<string>();
  const isCreatedByInstall = (jsonPath: string) => createdByInstall === null || createdByInstall.includes(jsonPath);
  if (next.hooks === undefined) return { settings: next, changes, removed: [] };
  const hooksByEvent = readHooksObject(next, file);
  for (const event of new Set(hooks.map((hook) => hook.event))) {
    if (hooksByEvent[event] === undefined) continue;
    const ours = hooks.filter((hook) => hook.event === event);
    const hookOf = (entry: Json) => (isObject(entry) && typeof entry.command === "string" ? ours.find((hook) => isTeammemHookCommand(entry.command as string, hook)) : undefined);
    const groups = readEventGroups(hooksByEvent, event, file);
    const kept: Json[] = [];
    let removedHere = 0;
    for (const group of groups) {
      const entries = isObject(group) && Array.isArray(group.hooks) ? group.hooks : null;
      const remaining = entries?.filter((entry) => hookOf(entry) === undefined) ?? null;
      if (!entries || !remaining || remaining.length === entries.length) {
        kept.push(group);
        continue;
      }
      for (const entry of entries) {
        const hook = hookOf(entry);
        if (!hook) continue;
        changes.push(`${event}: ${(entry as JsonObject).command as string}`);
        removed.add(hookLabel(hook));
      }
      removedHere += entries.length - remaining.length;
      if (remaining.length > 0) kept.push({ ...(group as JsonObject), hooks: remaining });
    }
    if (removedHere === 0) continue;
    if (kept.length > 0 || !isCreatedByInstall(`hooks.${event}`)) hooksByEvent[event] = kept;
    else delete hooksByEvent[event];
  }
  if (Object.keys(hooksByEvent).length === 0 && changes.length > 0 && isCreatedByInstall("hooks")) delete next.hooks;
  return { settings: next, changes, removed: [...removed] };
}

/**
 * Of the JSON paths an earlier install recorded as created (`hooks`, `hooks.SessionStart`), those
 * that still hold one of these hooks: still install's own. One that holds none may since have
 * been written anew by the settings' owner (a replaced file that has `"hooks": {}`).
 */
export function keepOwnContainers(settings: unknown, hooks: readonly TeammemHook[], file: string, recorded: readonly string[]): string[] {
  const present = listTeammemHooks(settings, hooks, file).map((hook) => `hooks.${hook.slice(0, hook.indexOf(":"))}`);
  return recorded.filter((jsonPath) => (jsonPath === "hooks" ? present.length > 0 : present.includes(jsonPath)));
}

/** The teammem hooks these settings hold, as `Event: command` of the hook as install writes it. */
export function listTeammemHooks(settings: unknown, hooks: readonly TeammemHook[], file: string): string[] {
  const object = asSettingsObject(settings, file);
  if (object.hooks === undefined) return [];
  const hooksByEvent = readHooksObject(object, file);
  return hooks
    .filter((hook) => hooksByEvent[hook.event] !== undefined && readEventGroups(hooksByEvent, hook.event, file).some((group) => groupCommands(group).some((command) => isTeammemHookCommand(command, hook))))
    .map(hookLabel);
}

function asSettingsObject(settings: unknown, file: string): JsonObject {
  if (!isObject(settings)) throw new AppError("INVALID_INPUT", `${file} does not hold a JSON object; Claude Code settings are one. Nothing was changed.`);
  return settings as JsonObject;
}

function readHooksObject(settings: JsonObject, file: string): JsonObject {
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw new AppError("INVALID_INPUT", `${file}: "hooks" is not an object (Claude Code expects {"EventName": [...]}). Nothing was changed.`);
  return hooks;
}

function readEventGroups(hooksByEvent: JsonObject, event: string, file: string): Json[] {
  const groups = hooksByEvent[event] ?? [];
  if (!Array.isArray(groups)) throw new AppError("INVALID_INPUT", `${file}: "hooks.${event}" is not a list of matcher groups. Nothing was changed.`);
  return [...groups];
}

function groupCommands(group: Json): string[] {
  if (!isObject(group) || !Array.isArray(group.hooks)) return [];
  return group.hooks.flatMap((entry) => (isObject(entry) && typeof entry.command === "string" ? [entry.command] : []));
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
