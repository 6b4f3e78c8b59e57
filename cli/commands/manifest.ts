import { MAX_MEMORY_FILES, scanMemoryDir } from "../../lib/memdir/scan-memory-dir";
import { formatModelManifest } from "../../lib/recall/format-model-manifest";
import { toSurfacedKey } from "../../lib/recall/surfaced-key";
import type { Command } from "../command";
import { EXIT } from "../output";
import { readMemoryDirArg } from "../read-memory-dir-arg";

export const manifestCommand: Command = {
  name: "manifest",
  summary: "print the manifest recall shows the selector for a local memory directory",
  help: `teammem manifest — print the manifest recall shows the selector for a local memory directory

Usage: teammem manifest DIR [--surfaced a.md,b.md] [--json]

One line per memory, newest ${MAX_MEMORY_FILES} only, exactly as teammem's selector model reads it:
  - [type] relative/path.md (2026-03-28T10:30:00.000Z): description
A memory without a valid type has no [type] tag; one without a description has no ": …" tail.
A credential in a file name or a description is masked ([REDACTED:kind …]): none goes to a model.

  --surfaced  comma-separated paths (relative to DIR, or absolute) already shown in this conversation;
              they are left out so they do not take one of the selector's slots
  --json      {"dir", "lines": [...]}

Exit code 0, or 2 when DIR is missing or not a directory. Needs no teammem setup.`,
  options: { surfaced: { type: "string" } },
  async run({ positionals, flags, output }) {
    const memoryDir = await readMemoryDirArg("manifest", positionals);
    const surfaced = typeof flags.surfaced === "string" ? parseSurfaced(memoryDir, flags.surfaced) : [];
    const scan = await scanMemoryDir(memoryDir);
    // R4: surfaced memories leave the manifest after the newest-200 cut, as Claude Code does, so
    // they free a selector slot without pulling an older memory into the window.
    const manifest = formatModelManifest(scan.memories, surfaced);
    const lines = manifest === "" ? [] : manifest.split("\n");
    if (output.isJson) output.json({ dir: memoryDir, lines });
    else output.print(...lines);
    return EXIT.ok;
  },
};

/** Paths as a user or an agent gives them (`./a.md`, `team\\b.md`, absolute), as scan paths. */
function parseSurfaced(memoryDir: string, list: string): string[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => toSurfacedKey(memoryDir, entry));
}
