import { stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../lib/errors";

/**
 * The one DIR positional of the offline memory commands, checked before any work starts: these
 * commands read a local folder and never need teammem's configuration, so a typo must fail
 * here with exit 2 rather than look like an empty memory directory (P5 treats a missing
 * directory as empty, which is right for Claude Code but wrong for a command line).
 */
export async function readMemoryDirArg(commandName: string, positionals: string[]): Promise<string> {
  const [dirArg, extra] = positionals;
  if (dirArg === undefined) {
    throw new AppError("INVALID_INPUT", `${commandName} needs a memory directory: teammem ${commandName} DIR (see teammem ${commandName} --help).`);
  }
  if (extra !== undefined) throw new AppError("INVALID_INPUT", `${commandName} takes one directory; unexpected argument "${extra}".`);
  const memoryDir = path.resolve(dirArg);
  const info = await stat(memoryDir).catch(() => null);
  if (!info) throw new AppError("NOT_FOUND", `no such directory: ${dirArg}`);
  if (!info.isDirectory()) throw new AppError("INVALID_INPUT", `${dirArg} is not a directory; give the memory folder, not a file in it.`);
  return memoryDir;
}
