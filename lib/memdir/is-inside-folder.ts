import path from "node:path";

/** True when `candidate` is `folder` or lies below it (both absolute, already resolved as the caller needs). */
export function isInsideFolder(folder: string, candidate: string): boolean {
  return candidate === folder || candidate.startsWith(folder + path.sep);
}
