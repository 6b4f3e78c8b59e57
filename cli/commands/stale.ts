import { checkMemoryDir, type LocalFreshnessReport } from "../../lib/stale/check-memory-dir";
import type { Command } from "../command";
import { EXIT, type Output } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

export const staleCommand: Command = {
  name: "stale",
  summary: "check a local memory directory's memories against a local code repository",
  help: `teammem stale — check a local memory directory's memories against a local code repository

Usage: teammem stale DIR --repo PATH [--json]

For each memory of DIR: is it old for its type, does it name a date that has passed, do the
files, folders and symbols it cites still exist at the HEAD of the code repository at PATH (and
where did a moved file go), and is it nearly the same as a newer memory. Reads git objects only:
nothing is checked out, nothing of the repository runs. Offline: no teammem setup needed.

  --repo PATH  the code repository (a working copy or a bare repository)
  --json       {"codeCommit", "codeRepoProblem", "memories": [{"file", "state", "score",
               "signals": [{"kind", "message", "evidence"}], "notChecked": [...]}],
               "skipped": [{"path", "reason", "message"}]}
Files that are not read (symbolic links, named pipes, unreadable files) are listed as skipped;
a file over 100 KB (the team store's limit) is checked up to there, says so in notChecked, and
is at best aging (its unread part may cite what is gone).

States: fresh, aging, stale. Exit code 1 when a memory is stale, 0 otherwise, 2 when DIR is
missing. Without --repo (or when PATH cannot be read) code citations are "not checked".`,
  options: { repo: { type: "string" } },
  async run({ positionals, flags, output }) {
    const memoryDir = await readMemoryDirArg("stale", positionals);
    const codeRepo = typeof flags.repo === "string" && flags.repo.trim() !== "" ? flags.repo : null;
    const report = await checkMemoryDir({ memoryDir, codeRepo });
    if (output.isJson) output.json(report);
    else printReport(output, report);
    return report.memories.some((memory) => memory.state === "stale") ? EXIT.findings : EXIT.ok;
  },
};

function printReport(output: Output, report: LocalFreshnessReport): void {
  output.print(report.codeCommit ? `Code repository at ${report.codeCommit.slice(0, 12)}.` : `Code citations not checked: ${report.codeRepoProblem}.`);
  output.print("");
  for (const memory of report.memories) {
    output.print(`${memory.state.padEnd(6)}  ${memory.file}`);
    for (const signal of memory.signals) output.print(`        ${signal.kind}: ${signal.message}`);
    for (const note of memory.notes) output.print(`        note: ${note}`);
    for (const item of memory.notChecked.filter((text) => !text.includes("recall history"))) output.print(`        ${item}`);
  }
  for (const skipped of report.skipped) output.print(`skipped  ${skipped.path}  ${skipped.reason}: ${skipped.message}`);
  const stale = report.memories.filter((memory) => memory.state === "stale").length;
  const aging = report.memories.filter((memory) => memory.state === "aging").length;
  output.print("");
  output.print(`${report.memories.length} memories: ${stale} stale, ${aging} aging, ${report.memories.length - stale - aging} fresh${report.skipped.length > 0 ? `; ${report.skipped.length} skipped` : ""}.`);
}
