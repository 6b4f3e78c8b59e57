import path from "node:path";

/**
 * R4: the scan path (C5: relative, `/`) of a file a caller says was already surfaced. Agents know
 * it by absolute path (their Read), people type `./a.md` or `team\b.md`: all name the same memory,
 * in `teammem recall` and `teammem manifest` alike.
 */
export function toSurfacedKey(memoryDir: string, file: string): string {
  const relative = path.isAbsolute(file) ? path.relative(memoryDir, file) : file;
  return relative.split(path.sep).join("/").replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}
