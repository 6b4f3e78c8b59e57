import { parseArgs } from "node:util";
// Inlined by the build, so the compiled CLI in generated/cli/ needs no path back to package.json.
import packageJson from "../package.json" with { type: "json" };
import type { Config } from "../lib/config";
import { isAppError } from "../lib/errors";
import { COMMANDS, type CommandEntry } from "./commands";
import { createOutput, endQuietlyWhenStdoutCloses, EXIT, formatLines, linesOf } from "./output";

function overallHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 2;
  return `teammem — the team hub for Claude Code memory

Usage: teammem <command> [options]

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`).join("\n")}

Options:
  --json      machine-readable output on stdout
  --help, -h  show help (also: teammem <command> --help)
  --version   print the version

Exit codes: 0 ok, 1 findings or a failed check, 2 bad usage or input (message on stderr).
Configuration comes from the environment; see README.md.`;
}

const COMMON_OPTIONS = { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, version: { type: "boolean" } } as const;

/** Runs the CLI and returns the exit code (never throws). */
export async function main(argv: string[]): Promise<number> {
  endQuietlyWhenStdoutCloses();
  // Before any command loads: the version is the same whatever else was typed.
  if (argv.includes("--version")) return process.stdout.write(`${packageJson.version}\n`), EXIT.ok;
  const commandName = argv.find((arg) => !arg.startsWith("-"));
  const entry = COMMANDS.find((candidate) => candidate.name === commandName);
  // Only the one command named is loaded; --help without a command loads none. Its settings
  // module loads meanwhile: one after the other, each waited for its files in turn.
  const configLoading = entry?.needsConfig ? import("../lib/config") : null;
  configLoading?.catch(() => {}); // awaited when the command runs; a usage error returns before
  const command = await entry?.load();
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, ...(command?.options ?? {}) } });
  } catch (error) {
    // Before the output is made; the message quotes what was typed, so it is escaped all the same.
    process.stderr.write(formatLines([`teammem: ${(error as Error).message}`, `Run teammem ${command ? `${command.name} ` : ""}--help for usage.`]));
    return EXIT.usage;
  }
  const output = createOutput(parsed.values.json === true);
  if (!commandName) {
    if (parsed.values.help) return output.print(...linesOf(overallHelp())), EXIT.ok;
    output.error("teammem: no command given.", "", ...linesOf(overallHelp()));
    return EXIT.usage;
  }
  if (!entry || !command) {
    output.error(`teammem: unknown command "${commandName}". Commands: ${COMMANDS.map((candidate) => candidate.name).join(", ")}.`);
    return EXIT.usage;
  }
  if (parsed.values.help) return output.print(...linesOf(command.help)), EXIT.ok;

  try {
    const positionals = parsed.positionals.slice(parsed.positionals.indexOf(command.name) + 1);
    const config = await prepareConfig(entry, configLoading);
    return await command.run({ positionals, flags: parsed.values as Record<string, string | boolean | undefined>, config, output });
  } catch (error) {
    if (isAppError(error)) {
      output.error(`teammem: ${error.message}`);
      return ["CONFIG_INVALID", "INVALID_INPUT", "INVALID_MEMORY", "NOT_FOUND"].includes(error.code) ? EXIT.usage : EXIT.findings;
    }
    output.error(`teammem ${command.name}: unexpected error (${(error as Error)?.name ?? "unknown"}); please report it.`);
    return EXIT.findings;
  }
}

/**
 * The settings module (with zod) loads only for commands that read configuration; `config()` is
 * synchronous for the command, so it is imported here, before the command runs.
 */
async function prepareConfig(entry: CommandEntry, configLoading: Promise<typeof import("../lib/config")> | null): Promise<() => Config> {
  if (!entry.needsConfig) {
    return () => {
      throw new Error(`the ${entry.name} command reads configuration: mark it needsConfig in cli/commands.ts`);
    };
  }
  const { loadConfig } = await (configLoading ?? import("../lib/config"));
  return () => loadConfig();
}
