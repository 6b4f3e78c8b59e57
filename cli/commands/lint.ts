import { lintMemoryDirectory } from "../../lib/lint/lint-memory-directory";
import type { LintFinding } from "../../lib/memdir/lint-finding";
import type { Command } from "../command";
import { EXIT, type Output } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

export const lintCommand: Command = {
  name: "lint",
  summary: "check every memory and MEMORY.md of a local memory directory",
  help: `teammem lint — check every memory and MEMORY.md of a local memory directory

Usage: teammem lint DIR [--json]

Checks each memory's frontmatter, type, description, structure, dates and derivable content,
credentials in the text or the name (rule "secret", never printed), what teammem sync and
teammem propose would refuse (names, size, UTF-8), files that cannot be read (links outside
DIR, named pipes and devices are never opened), and the MEMORY.md of DIR and of any subfolder
with its own (such as team/). Daily logs (logs/YYYY/MM/YYYY-MM-DD.md, which assistant mode
writes without frontmatter or index line) are checked only for credentials, readability and
what sync and propose refuse. Each finding names its rule (listed in docs/memory-format.md) and
says what is wrong and, where it can, how to fix it.

  --json  {"findings": [{"file", "rule", "severity", "message", "line"?, "fix"?}]}

Exit code 1 when any finding is an error, 0 when there are only warnings or none, 2 when DIR
is missing or not a directory. Needs no teammem setup.`,
  async run({ positionals, output }) {
    const memoryDir = await readMemoryDirArg("lint", positionals);
    const { findings, hasErrors } = await lintMemoryDirectory(memoryDir);
    if (output.isJson) output.json({ findings });
    else printFindings(output, findings);
    return hasErrors ? EXIT.findings : EXIT.ok;
  },
};

function printFindings(output: Output, findings: LintFinding[]): void {
  // Not Map.groupBy: Node 20 lacks it.
  const byFile = new Map<string, LintFinding[]>();
  for (const finding of findings) {
    const group = byFile.get(finding.file) ?? [];
    if (group.length === 0) byFile.set(finding.file, group);
    group.push(finding);
  }
  for (const [file, fileFindings] of byFile) {
    output.print(file);
    for (const finding of fileFindings) {
      const where = finding.line === undefined ? "" : ` (line ${finding.line})`;
      output.print(`  ${finding.severity.padEnd(7)}  ${finding.rule}${where}: ${finding.message}`);
      if (finding.fix) output.print(`           fix: ${finding.fix}`);
    }
    output.print("");
  }
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.length - errors;
  output.print(findings.length === 0 ? "No findings." : `${plural(errors, "error")} and ${plural(warnings, "warning")} in ${plural(byFile.size, "file")}.`);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
