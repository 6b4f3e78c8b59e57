import path from "node:path";

/**
 * R4: the scan path (C5: relative, `/`) of a file a caller says was already surfaced. Agents know
 * it by absolute path (their Read) or as the injection showed it, people type `./a.md` or
 * `team\b.md`: all name the same memory, in `teammem recall` and `teammem manifest` alike.
 */
export function toSurfacedKey(memoryDir: string, file: string): string {
  const relative = path.isAbsolute(file) && path.isAbsolute(memoryDir) ? path.relative(memoryDir, file) : file;
  const key = withSlashes(relative).replace(/^(\.\/)+/, "");
  return path.isAbsolute(memoryDir) ? key : afterDir(key, withSlashes(memoryDir).replace(/^(\.\/)+/, "").replace(/\/+$/, ""));
}

/**
 * A relative memoryDir is how injections name the folder (the server's `memory/team`), and the
 * agent was shown `memory/team/x.md` or its own absolute `…/memory/team/x.md`: the part after it.
 */
function afterDir(key: string, dir: string): string {
  if (!dir) return key;
  const prefix = `${dir}/`;
  if (key.startsWith(prefix)) return key.slice(prefix.length);
  const inside = key.indexOf(`/${prefix}`);
  return inside === -1 ? key : key.slice(inside + prefix.length + 1);
}

function withSlashes(file: string): string {
  return file.split(path.sep).join("/").replace(/\\/g, "/");
}
