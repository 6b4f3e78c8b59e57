import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { runCodeGit } from "../code-repo/code-git";

/** What `hooks install --local` writes: the local settings file and its backups. */
const PATTERN = "/.claude/settings.local.json*";

/**
 * Keeps the checkout's local Claude Code settings (and their backups) out of `git add .`, as
 * Claude Code does when it creates that file: a line in the repository's own `info/exclude`,
 * which is never committed or shared. Returns the file when a line was added, null when it was
 * there already or git could not say where it is (not a checkout: nothing to keep out of).
 */
export async function excludeLocalSettings(worktreeRoot: string): Promise<string | null> {
  const result = await runCodeGit(worktreeRoot, ["rev-parse", "--git-path", "info/exclude"], { okExitCodes: [128] }).catch(() => null);
  if (result?.exitCode !== 0) return null;
  const excludeFile = path.resolve(worktreeRoot, result.stdout.toString("utf8").trim());
  const text = await readFile(excludeFile, "utf8").catch(() => "");
  if (text.split("\n").some((line) => line.trim() === PATTERN)) return null;
  await appendFile(excludeFile, `${text === "" || text.endsWith("\n") ? "" : "\n"}# teammem hooks install --local\n${PATTERN}\n`);
  return excludeFile;
}
