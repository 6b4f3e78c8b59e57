import { execFileSync } from "node:child_process";
import path from "node:path";

/** The `teammem` command as installed (the package's bin). */
export const TEAMMEM_BIN = path.resolve("cli/teammem.mjs");

/**
 * Builds the compiled CLI (generated/cli) when it is missing or older than its sources, so CLI
 * tests run the JavaScript users run rather than the tsx fallback. Safe from parallel test
 * files: the build takes a lock and re-checks.
 */
export function ensureCompiledCli(): void {
  execFileSync(process.execPath, [path.resolve("scripts/build-cli.mjs"), "--if-stale"], { stdio: "pipe" });
}
