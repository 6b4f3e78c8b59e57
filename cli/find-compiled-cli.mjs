// Shared by the launcher (cli/teammem.mjs) and the build (scripts/build-cli.mjs): where the
// compiled CLI lives and whether it still matches the sources. Plain JavaScript because it runs
// before any TypeScript loader.
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const COMPILED_DIR = fileURLToPath(new URL("../generated/cli/", import.meta.url));
export const COMPILED_ENTRY = `${COMPILED_DIR}main.js`;
/** Written last by the build: when it started and which source files went into the bundle. */
export const BUILD_RECORD = `${COMPILED_DIR}build.json`;
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The compiled entry when it exists and no source that went into it changed since the build
 * started, else null. One small JSON read and one stat per bundled source (~150 files, about a
 * millisecond), cheap beside Node's own start-up; a git checkout or an edit touches mtimes, so a
 * stale bundle is never run in place of the code on disk.
 */
export function findCompiledCli() {
  let record;
  try {
    record = JSON.parse(readFileSync(BUILD_RECORD, "utf8"));
  } catch {
    return null; // never built, or a build in progress: the loader path works without it
  }
  if (typeof record?.startedAtMs !== "number" || !Array.isArray(record.inputs)) return null;
  for (const input of record.inputs) {
    const info = statSync(ROOT + input, { throwIfNoEntry: false });
    if (!info || info.mtimeMs > record.startedAtMs) return null;
  }
  return COMPILED_ENTRY;
}
