import path from "node:path";
import { findCanonicalGitRoot } from "../../lib/memdir/find-canonical-git-root";
import { resolveConfigHome } from "../../lib/memdir/resolve-config-home";
import { resolveApiTarget } from "../../lib/client/resolve-api-target";
import { editHooksFile } from "../../lib/hooks/edit-hooks-file";
import { excludeLocalSettings } from "../../lib/hooks/exclude-local-settings";
import { TEAMMEM_HOOKS } from "../../lib/hooks/teammem-hooks";
import type { Command } from "../command";
import { EXIT, linesOf } from "../output";

const HELP = `teammem hooks — add teammem to Claude Code, or take it out again

Usage: teammem hooks install [--local] [--dry-run] [--json]
       teammem hooks uninstall [--local] [--dry-run] [--json]

install adds two hooks to your Claude Code settings (<CLAUDE_CONFIG_DIR or ~/.claude>/settings.json):
${TEAMMEM_HOOKS.map((hook) => `  ${hook.event.padEnd(17)} ${hook.command.padEnd(22)} ${hook.purpose}`).join("\n")}
With --local they go to this checkout's .claude/settings.local.json instead (never the checked-in
.claude/settings.json), and git is told to ignore that file (.git/info/exclude). Other settings and hooks are kept; installing twice adds nothing; the
previous file is kept as <file>.bak-<time>. uninstall removes exactly the hooks install added and
what it created to hold them (a hook, "hooks" object or event list the file already had stays).
A settings file that is not valid JSON is refused and left as it is. New sessions pick the hooks up.
--dry-run says what would change and writes nothing. The commands must be on PATH as \`teammem\`.`;

export const hooksCommand: Command = {
  name: "hooks",
  summary: "install or remove teammem's Claude Code hooks (session sync, prompt recall)",
  help: HELP,
  options: { local: { type: "boolean" }, "dry-run": { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const [action, extra] = positionals;
    if ((action !== "install" && action !== "uninstall") || extra !== undefined) {
      output.error("teammem hooks: say install or uninstall.", "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const config = loadConfig();
    const file = flags.local === true ? await localSettingsFile(process.cwd()) : path.join(resolveConfigHome(config.claudeCodeEnv, config.homeDir), "settings.json");
    const dryRun = flags["dry-run"] === true;
    const edit = await editHooksFile({ file, action, dryRun, recordDir: config.cliConfigDir });
    const excluded = flags.local === true && action === "install" && !dryRun ? await excludeLocalSettings(path.dirname(path.dirname(file))) : null;
    if (output.isJson) {
      output.json({ ...edit, dryRun, gitExclude: excluded });
      return EXIT.ok;
    }
    const verb = action === "install" ? (dryRun ? "Would add" : "Added") : dryRun ? "Would remove" : "Removed";
    if (edit.changes.length === 0 && edit.kept.length === 0) output.print(action === "install" ? `teammem's hooks are already in ${file}; nothing changed.` : `${file} holds no teammem hook; nothing changed.`);
    for (const change of edit.changes) output.print(`${verb} ${change}  (${file})`);
    for (const hook of edit.kept) output.print(`Kept ${hook}  (${file}): it was there before \`teammem hooks install\`.`);
    if (edit.backup) output.print(`The previous file is kept as ${edit.backup}.`);
    if (excluded) output.print(`Git ignores .claude/settings.local.json in this checkout now (a line in ${excluded}), so \`git add .\` leaves it out.`);
    if (edit.removedFile) output.print(`Deleted ${file}: \`teammem hooks install\` had created it, and it held nothing else.`);
    if (edit.wrote) output.print("New Claude Code sessions use the change; running sessions keep their hooks.");
    if (action === "install" && !(await resolveApiTarget(config).then(() => true, () => false))) {
      output.print("Note: this machine has no teammem login yet; the hooks do nothing until `teammem login --server URL` (or TEAMMEM_TOKEN and TEAMMEM_SERVER).");
    }
    return EXIT.ok;
  },
};

/** The checkout's own, not checked-in settings: where Claude Code looks for local settings. */
async function localSettingsFile(cwd: string): Promise<string> {
  const roots = await findCanonicalGitRoot(cwd);
  return path.join(roots?.worktreeRoot ?? path.resolve(cwd), ".claude", "settings.local.json");
}
