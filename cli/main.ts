import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config";
import { isAppError } from "../lib/errors";
import { doctorHelp, runDoctor } from "./commands/doctor";
import { createOutput, EXIT } from "./output";

const HELP = `teammem — the team hub for Claude Code memory

Usage: teammem <command> [options]

Commands:
  doctor      check configuration, data folder, store, database and model key

Options:
  --json      machine-readable output on stdout
  --help, -h  show help (also: teammem <command> --help)
  --version   print the version

Exit codes: 0 ok, 1 findings or a failed check, 2 bad usage or input (message on stderr).
Configuration comes from the environment; see README.md.`;

const COMMANDS: Record<string, { help: string; run: typeof runDoctor }> = {
  doctor: { help: doctorHelp, run: runDoctor },
};

/** Runs the CLI and returns the exit code (never throws). */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, version: { type: "boolean" } },
    });
  } catch (error) {
    process.stderr.write(`teammem: ${(error as Error).message}\nRun teammem --help for usage.\n`);
    return EXIT.usage;
  }
  const output = createOutput(parsed.values.json === true);
  const [commandName, ...rest] = parsed.positionals;

  if (parsed.values.version) return output.print(version()), EXIT.ok;
  if (!commandName) {
    if (parsed.values.help) return output.print(HELP), EXIT.ok;
    output.error(`teammem: no command given.\n\n${HELP}`);
    return EXIT.usage;
  }
  const command = COMMANDS[commandName];
  if (!command) {
    output.error(`teammem: unknown command "${commandName}". Commands: ${Object.keys(COMMANDS).join(", ")}.`);
    return EXIT.usage;
  }
  if (parsed.values.help) return output.print(command.help), EXIT.ok;
  if (rest.length > 0) {
    output.error(`teammem ${commandName}: unexpected argument "${rest[0]}".\n\n${command.help}`);
    return EXIT.usage;
  }

  try {
    return await command.run(loadConfig(), output);
  } catch (error) {
    if (isAppError(error)) {
      output.error(`teammem: ${error.message}`);
      return error.code === "CONFIG_INVALID" || error.code === "INVALID_INPUT" ? EXIT.usage : EXIT.findings;
    }
    output.error(`teammem: unexpected error (${(error as Error)?.name ?? "unknown"}); run with TEAMMEM_LOG_LEVEL=debug and report it.`);
    return EXIT.findings;
  }
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}
