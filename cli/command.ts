import type { Config } from "../lib/config";
import type { Output } from "./output";

/** Options every command receives: parsed flags (strings, booleans, lists) and positionals. */
export type CommandInput = {
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
  /** Loads configuration on demand: offline commands on a local folder never need it. */
  config: () => Config;
  output: Output;
};

export type Command = {
  name: string;
  summary: string;
  help: string;
  /** Flags this command accepts besides --json/--help (node:util parseArgs option format). */
  options?: Record<string, { type: "string" | "boolean"; short?: string }>;
  run(input: CommandInput): Promise<number>;
};
