import type { Command } from "./command";
import { doctorCommand } from "./commands/doctor";

/** Every `teammem` command, in the order --help lists them. One line per command. */
export const COMMANDS: Command[] = [
  doctorCommand,
];
