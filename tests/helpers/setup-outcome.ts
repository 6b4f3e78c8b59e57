import { spawnSync } from "node:child_process";
import { loadConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { runSetup } from "@/lib/setup/run-setup";
import { TEAMMEM_BIN } from "./compiled-cli";

/** The error start-up stops with for these settings; anything else (success included) fails the test. */
export async function setupError(env: Record<string, string>): Promise<AppError> {
  const error = await runSetup(loadConfig(env)).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected setup to stop with an AppError, got ${String(error)}`);
}

/** `teammem doctor` as an operator runs it (the compiled CLI: call ensureCompiledCli first). */
export function runDoctor(env: Record<string, string>): { code: number | null; stdout: string } {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, "doctor"], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { code: result.status, stdout: result.stdout };
}
