import path from "node:path";

/** C1: Claude Code truncates longer folder names and appends a runtime-specific hash. */
export const MAX_SANITIZED_LENGTH = 200;

/**
 * C1: the project folder name Claude Code derives from a path: every UTF-16 code unit outside
 * [A-Za-z0-9] becomes "-" (runs are kept). Names over 200 units are returned as their 200-unit
 * prefix, which is how a reader must match them (the hash suffix differs between runtimes).
 */
export function sanitizeProjectPath(projectPath: string): string {
  let sanitized = "";
  for (let index = 0; index < projectPath.length; index++) {
    const unit = projectPath.charCodeAt(index);
    const isAlnum =
      (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122);
    sanitized += isAlnum ? projectPath[index] : "-";
  }
  return sanitized.length > MAX_SANITIZED_LENGTH ? sanitized.slice(0, MAX_SANITIZED_LENGTH) : sanitized;
}

/** P1: `<config home>/projects/<sanitized git root>/memory/`. */
export function privateMemoryDir(claudeHome: string, gitRoot: string): string {
  return path.join(claudeHome, "projects", sanitizeProjectPath(gitRoot), "memory");
}

/** T1: team memory is the `team/` subdirectory of the memory directory. */
export function teamMemoryDir(memoryDir: string): string {
  return path.join(memoryDir, "team");
}
