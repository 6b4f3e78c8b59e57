import type { Command } from "./command";

/**
 * What `teammem --help` lists about a command without loading it. A command's module (and the
 * Prisma client, better-auth, secretlint, … it imports) loads only when that command runs:
 * importing them all cost every start-up about a second, `--version` included.
 */
export type CommandEntry = {
  name: string;
  /** The line --help shows; the module's own `summary` must say the same (a unit test checks). */
  summary: string;
  /**
   * The command calls `config()`: its settings module (and zod) load before it runs. Offline
   * commands on a local folder leave it out and start faster.
   */
  needsConfig?: boolean;
  load: () => Promise<Command>;
};

/** Every `teammem` command, in the order --help lists them. One entry per command. */
export const COMMANDS: CommandEntry[] = [
  {
    name: "doctor",
    summary: "check configuration, data folder, store, database and model key",
    needsConfig: true,
    load: async () => (await import("./commands/doctor")).doctorCommand,
  },
  {
    name: "scan",
    summary: "list the memories of a local memory directory, newest first",
    load: async () => (await import("./commands/scan")).scanCommand,
  },
  {
    name: "manifest",
    summary: "print the manifest recall shows the selector for a local memory directory",
    load: async () => (await import("./commands/manifest")).manifestCommand,
  },
  {
    name: "lint",
    summary: "check every memory and MEMORY.md of a local memory directory",
    load: async () => (await import("./commands/lint")).lintCommand,
  },
  {
    name: "index",
    summary: "check or repair the MEMORY.md index of a local memory directory",
    load: async () => (await import("./commands/index-command")).indexCommand,
  },
  {
    name: "recall",
    summary: "show the memories an agent would be given for a query",
    needsConfig: true,
    load: async () => (await import("./commands/recall")).recallCommand,
  },
  {
    name: "stale",
    summary: "check a local memory directory's memories against a local code repository",
    load: async () => (await import("./commands/stale")).staleCommand,
  },
  {
    name: "secrets",
    summary: "find (and optionally redact) credentials in a file or stdin",
    load: async () => (await import("./commands/secrets")).secretsCommand,
  },
  {
    name: "extract",
    summary: "propose memories from a Claude Code session transcript, with evidence",
    needsConfig: true,
    load: async () => (await import("./commands/extract")).extractCommand,
  },
  {
    name: "dream",
    summary: "distil KAIROS daily logs into topic memory candidates (at most once a day)",
    needsConfig: true,
    load: async () => (await import("./commands/dream")).dreamCommand,
  },
  {
    name: "login",
    summary: "save an API token for this machine (from the Settings page)",
    needsConfig: true,
    load: async () => (await import("./commands/login")).loginCommand,
  },
  {
    name: "whoami",
    summary: "show which account and projects the CLI's token reaches",
    needsConfig: true,
    load: async () => (await import("./commands/login")).whoamiCommand,
  },
  {
    name: "projects",
    summary: "list, create, archive or unarchive team projects (on the server)",
    needsConfig: true,
    load: async () => (await import("./commands/projects")).projectsCommand,
  },
  {
    name: "users",
    summary: "list accounts, create one, or reset a password (on the server)",
    needsConfig: true,
    load: async () => (await import("./commands/users")).usersCommand,
  },
  {
    name: "hooks",
    summary: "install or remove teammem's Claude Code hooks (session sync, prompt recall)",
    needsConfig: true,
    load: async () => (await import("./commands/hooks")).hooksCommand,
  },
  {
    name: "recall-hook",
    summary: "Claude Code prompt hook: add the team memories the server recalls for a prompt",
    // Loads the settings itself, after the cheap checks: a skipped prompt never pays for them.
    load: async () => (await import("./commands/recall-hook")).recallHookCommand,
  },
  {
    name: "reindex",
    summary: "rebuild the read model from the team store (on the server)",
    needsConfig: true,
    load: async () => (await import("./commands/reindex")).reindexCommand,
  },
  {
    name: "sync",
    summary: "keep this checkout's team memory and the team store in step (both ways, via review)",
    needsConfig: true,
    load: async () => (await import("./commands/sync")).syncCommand,
  },
  {
    name: "status",
    summary: "show pending, blocked and rejected proposals and what the store gained since the last sync",
    needsConfig: true,
    load: async () => (await import("./commands/status")).statusCommand,
  },
  {
    name: "propose",
    summary: "offer a private memory to the team (user memories stay private; secrets never leave)",
    needsConfig: true,
    load: async () => (await import("./commands/propose")).proposeCommand,
  },
];
