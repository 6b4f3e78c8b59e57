import type { Command } from "./command";
import { doctorCommand } from "./commands/doctor";
import { indexCommand } from "./commands/index-command";
import { lintCommand } from "./commands/lint";
import { manifestCommand } from "./commands/manifest";
import { scanCommand } from "./commands/scan";

/** Every `teammem` command, in the order --help lists them. One line per command. */
export const COMMANDS: Command[] = [
  doctorCommand,
  scanCommand,
  manifestCommand,
  lintCommand,
  indexCommand,
];
