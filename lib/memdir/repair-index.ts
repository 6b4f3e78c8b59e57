import { formatIndexLine } from "./build-index";
import { checkIndex, INDEX_FILE, type IndexReport } from "./check-index";
import { UnsafeMemoryPathError, writeMemoryFile } from "./write-memory-file";

export type IndexRepair = { before: string; after: string; added: string[]; removed: string[]; isChanged: boolean };

/**
 * I4: the repaired index text: dangling lines dropped, one line appended per orphan, every
 * other byte (order, hooks, comments, line ends) kept.
 */
export function repairIndexText(report: Pick<IndexReport, "text" | "dangling" | "orphans">): IndexRepair {
  const { text } = report;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const droppedLines = new Set(report.dangling.map((link) => link.line));
  const lines = text.split("\n");
  const kept = lines.filter((_, index) => !droppedLines.has(index + 1));
  let after = kept.join("\n");
  if (after.endsWith("\r") && !text.endsWith("\r")) after += "\n"; // the dropped last line took the \n of a CRLF
  const additions = report.orphans.map((memory) =>
    formatIndexLine({ file: memory.path, title: memory.name ?? titleFromPath(memory.path), hook: memory.description }),
  );
  if (additions.length > 0) {
    if (after !== "" && !after.endsWith("\n")) after += eol;
    after += additions.join(eol) + eol;
  }
  return {
    before: text,
    after,
    added: report.orphans.map((memory) => memory.path),
    removed: report.dangling.map((link) => link.file),
    isChanged: after !== text,
  };
}

/**
 * I4: checks and repairs a directory's MEMORY.md, written atomically; returns what changed. An
 * index that was not read (a link, a named pipe) is refused: its text is unknown, so a repair
 * would replace it with the orphan lines alone.
 */
export async function repairIndex(memoryDir: string): Promise<IndexRepair> {
  const report = await checkIndex(memoryDir);
  if (report.unreadableReason) throw new UnsafeMemoryPathError(INDEX_FILE, report.unreadableReason);
  const repair = repairIndexText(report);
  if (repair.isChanged) await writeMemoryFile({ memoryDir, relativePath: INDEX_FILE, content: repair.after });
  return repair;
}

function titleFromPath(memoryPath: string): string {
  return (memoryPath.split("/").at(-1) ?? memoryPath).replace(/\.md$/, "").replace(/[_-]+/g, " ");
}
