import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config";
import { isAppError } from "../lib/errors";
import { COMMANDS } from "./commands";
import { createOutput, EXIT } from "./output";

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
  const commandName = argv.find((arg) => !arg.startsWith("-"));
  const command = COMMANDS.find((candidate) => candidate.name === commandName);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, ...(command?.options ?? {}) } });
  } catch (error) {
    process.stderr.write(`teammem: ${(error as Error).message}\nRun teammem ${command ? `${command.name} ` : ""}--help for usage.\n`);
    return EXIT.usage;
  }
  const output = createOutput(parsed.values.json === true);
  if (parsed.values.version) return output.print(version()), EXIT.ok;
  if (!commandName) {
    if (parsed.values.help) return output.print(overallHelp()), EXIT.ok;
    output.error(`teammem: no command given.\n\n${overallHelp()}`);
    return EXIT.usage;
  }
  if (!command) {
    output.error(`teammem: unknown command "${commandName}". Commands: ${COMMANDS.map((candidate) => candidate.name).join(", ")}.`);
    return EXIT.usage;
  }
  if (parsed.values.help) return output.print(command.help), EXIT.ok;

  try {
    const positionals = parsed.positionals.slice(parsed.positionals.indexOf(command.name) + 1);
    return await command.run({ positionals, flags: parsed.values as Record<string, string | boolean | undefined>, config: () => loadConfig(), output });
  } catch (error) {
    if (isAppError(error)) {
      output.error(`teammem: ${error.message}`);
      return ["CONFIG_INVALID", "INVALID_INPUT", "INVALID_MEMORY", "NOT_FOUND"].includes(error.code) ? EXIT.usage : EXIT.findings;
    }
    output.error(`teammem ${command.name}: unexpected error (${(error as Error)?.name ?? "unknown"}); please report it.`);
    return EXIT.findings;
  }
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}
