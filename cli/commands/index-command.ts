import { checkIndex, INDEX_FILE, type IndexReport } from "../../lib/memdir/check-index";
import { repairIndex } from "../../lib/memdir/repair-index";
import { MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, truncateIndex } from "../../lib/memdir/truncate-index";
import { UnsafeMemoryPathError } from "../../lib/memdir/write-memory-file";
import { AppError } from "../../lib/errors";
import type { Command } from "../command";
import { formatLineDiff } from "../format-line-diff";
import { EXIT, type Output } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

export const indexCommand: Command = {
  name: "index",
  summary: "check or repair the MEMORY.md index of a local memory directory",
  help: `teammem index — check or repair the MEMORY.md index of a local memory directory

Usage: teammem index DIR --check [--json]
       teammem index DIR --fix [--json]

--check reports the index's size against Claude Code's limits (${MAX_ENTRYPOINT_LINES} lines, ${MAX_ENTRYPOINT_BYTES.toLocaleString("en-US")}
characters), exactly what is loaded, links to missing files (dangling), memories with no entry
(orphans; a subfolder with its own MEMORY.md, such as team/, is checked on its own), and lines
over ~150 characters.
  --json  {"lines", "bytes", "lineTruncated", "byteTruncated", "sizeCut" (none, line-end, exact), "loadedLines",
          "entriesOutsideWindow": [{"line", "file"}], "loaded", "dangling": [{"line", "file"}],
          "orphans": [file], "longLines": [line], "unreadable": reason | null}
  Exit code 1 when there are dangling links, orphans or a truncated index, or when MEMORY.md is
  not a regular file (a link or a named pipe: never opened, "unreadable" says which); long
  lines alone are a warning (exit 0).

--fix drops dangling lines and appends one line per orphan, keeping every other byte, and
writes MEMORY.md atomically; it prints what changed as a diff. It does not shorten an index
that is over its limits (that needs a person), nor touch a MEMORY.md that is not a regular file.
  --json  {"changed", "added": [file], "removed": [file], "isTruncated"}
  Exit code 0.

Exit code 2 when DIR is missing or not a directory, with neither or both of --check and --fix,
or when --fix refuses to write (a link out of DIR, a MEMORY.md that is not a regular file).
Needs no teammem setup.`,
  options: { check: { type: "boolean" }, fix: { type: "boolean" } },
  async run({ positionals, flags, output }) {
    if ((flags.check === true) === (flags.fix === true)) {
      throw new AppError("INVALID_INPUT", "index needs exactly one of --check or --fix (see teammem index --help).");
    }
    const memoryDir = await readMemoryDirArg("index", positionals);
    return flags.check === true ? runCheck(memoryDir, output) : runFix(memoryDir, output);
  },
};

async function runCheck(memoryDir: string, output: Output): Promise<number> {
  const report = await checkIndex(memoryDir);
  const hasProblems = report.dangling.length > 0 || report.orphans.length > 0 || report.warning !== null || report.unreadableReason !== null;
  if (output.isJson) {
    output.json({
      lines: report.lines,
      bytes: report.bytes,
      lineTruncated: report.lineTruncated,
      byteTruncated: report.byteTruncated,
      sizeCut: report.sizeCut,
      loadedLines: report.loadedLines,
      entriesOutsideWindow: report.entriesOutsideWindow.map((link) => ({ line: link.line, file: link.file })),
      loaded: report.loaded,
      dangling: report.dangling.map((link) => ({ line: link.line, file: link.file })),
      orphans: report.orphans.map((memory) => memory.path),
      longLines: report.longLines,
      unreadable: report.unreadableReason,
    });
  } else {
    printCheck(output, report);
  }
  return hasProblems ? EXIT.findings : EXIT.ok;
}

const SIZE_CUTS: Record<IndexReport["sizeCut"], string> = {
  none: "the first 200 lines fit, so no more is cut",
  "line-end": `cut at the last line end before ${MAX_ENTRYPOINT_BYTES.toLocaleString("en-US")}`,
  exact: `cut at ${MAX_ENTRYPOINT_BYTES.toLocaleString("en-US")} exactly: no line end before it`,
};

function printCheck(output: Output, report: IndexReport): void {
  const number = (value: number): string => value.toLocaleString("en-US");
  output.print(`lines    ${number(report.lines)} of ${MAX_ENTRYPOINT_LINES}${report.lineTruncated ? " (over: cut to the first 200)" : ""}`);
  output.print(`size     ${number(report.bytes)} of ${number(MAX_ENTRYPOINT_BYTES)} characters${report.byteTruncated ? ` (over: ${SIZE_CUTS[report.sizeCut]})` : ""}`);
  output.print(`loaded   ${number(report.loadedLines)} lines, ${number(report.links.length - report.entriesOutsideWindow.length)} of ${number(report.links.length)} entries`);
  for (const finding of report.findings) {
    output.print(`${finding.severity === "error" ? "error  " : "warning"}  ${finding.rule}: ${finding.message}${finding.fix ? ` ${finding.fix}` : ""}`);
  }
  if (report.findings.length === 0) output.print(`${INDEX_FILE} is in order.`);
}

async function runFix(memoryDir: string, output: Output): Promise<number> {
  const repair = await repairIndex(memoryDir).catch((error: unknown) => {
    // C12: a MEMORY.md that links out of the directory is refused; say so instead of crashing.
    if (error instanceof UnsafeMemoryPathError) throw new AppError("INVALID_INPUT", error.message, { cause: error });
    throw error;
  });
  const isTruncated = truncateIndex(repair.after).warning !== null;
  if (output.isJson) {
    output.json({ changed: repair.isChanged, added: repair.added, removed: repair.removed, isTruncated });
    return EXIT.ok;
  }
  if (!repair.isChanged) {
    output.print(`${INDEX_FILE} needs no repair: no dangling links, no orphans.`);
  } else {
    output.print(...formatLineDiff({ label: INDEX_FILE, before: repair.before, after: repair.after }));
    output.print("", `Removed ${repair.removed.length} dangling ${repair.removed.length === 1 ? "entry" : "entries"}, added ${repair.added.length}; ${INDEX_FILE} written.`);
  }
  if (isTruncated) output.print(`${INDEX_FILE} is still over Claude Code's loading limit; run teammem index DIR --check and shorten it by hand.`);
  return EXIT.ok;
}
