import type { Command } from "./command";
import { doctorCommand } from "./commands/doctor";
import { indexCommand } from "./commands/index-command";
import { lintCommand } from "./commands/lint";
import { manifestCommand } from "./commands/manifest";
import { scanCommand } from "./commands/scan";
import { recallCommand } from "./commands/recall";
import { secretsCommand } from "./commands/secrets";
import { usersCommand } from "./commands/users";
import { loginCommand, whoamiCommand } from "./commands/login";
import { projectsCommand } from "./commands/projects";

/** Every `teammem` command, in the order --help lists them. One line per command. */
export const COMMANDS: Command[] = [
  doctorCommand,
  scanCommand,
  manifestCommand,
  lintCommand,
  indexCommand,
  recallCommand,
  secretsCommand,
  loginCommand,
  whoamiCommand,
  projectsCommand,
  usersCommand,
];
