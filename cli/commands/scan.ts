import { scanMemoryDir, MAX_MEMORY_FILES } from "../../lib/memdir/scan-memory-dir";
import type { Command } from "../command";
import { EXIT } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

export const scanCommand: Command = {
  name: "scan",
  summary: "list the memories of a local memory directory, newest first",
  help: `teammem scan — list the memories of a local memory directory, newest first

Usage: teammem scan DIR [--all] [--json]

Reads every *.md except MEMORY.md at any depth (first 30 lines and mtime of each). Files that
cannot be read, symbolic links (never followed) and named pipes or devices (never opened) are
listed as skipped with a reason. Names are printed with control characters escaped (\\x1b).

  --all   list every memory, not only the newest ${MAX_MEMORY_FILES} that recall sees
  --json  {"dir", "total", "memories": [{"file", "type", "name", "description", "mtime"}],
          "skipped": [{"file", "reason"}]}

Exit code 0, or 2 when DIR is missing or not a directory. Needs no teammem setup.`,
  options: { all: { type: "boolean" } },
  async run({ positionals, flags, output }) {
    const memoryDir = await readMemoryDirArg("scan", positionals);
    const scan = await scanMemoryDir(memoryDir, { all: flags.all === true });
    const memories = scan.memories.map((memory) => ({
      file: memory.path,
      type: memory.type,
      name: memory.name,
      description: memory.description,
      mtime: memory.mtime.toISOString(),
    }));
    if (output.isJson) {
      output.json({ dir: memoryDir, total: scan.total, memories, skipped: scan.skipped.map((skipped) => ({ file: skipped.path, reason: skipped.reason })) });
      return EXIT.ok;
    }
    const typeWidth = Math.max(4, ...memories.map((memory) => (memory.type ?? "-").length));
    for (const memory of memories) {
      const about = [memory.name, memory.description].filter(Boolean).join(" — ");
      output.print(`${memory.mtime}  ${(memory.type ?? "-").padEnd(typeWidth)}  ${memory.file}${about ? `  ${about}` : ""}`);
    }
    for (const skipped of scan.skipped) output.print(`skipped  ${skipped.path}  ${skipped.reason}: ${skipped.message}`);
    const shown = memories.length < scan.total ? `, showing the newest ${memories.length} (--all for every one)` : "";
    output.print(`${scan.total} ${scan.total === 1 ? "memory" : "memories"}${shown}; ${scan.skipped.length} skipped.`);
    return EXIT.ok;
  },
};
