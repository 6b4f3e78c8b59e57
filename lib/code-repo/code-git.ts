import { AppError } from "../errors";
import { runGitProcess } from "../git-process/run-git-process";

/**
 * The one module that runs git against a project's code repository (not the team store: that is
 * lib/store/git.ts). The repository is someone else's, possibly hostile: only plumbing that reads
 * objects runs here (ls-tree, grep on a tree, log, cat-file, clone/fetch into our own mirror),
 * never a checkout, and the settings below switch off everything in a repository's own config
 * that could start a program.
 */

const CODE_GIT_TIMEOUT_MS = 10 * 60_000;
/** Output larger than this is refused rather than held in memory. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

// `-c` wins over the repository's .git/config. fsmonitor and hooks would run programs; an external
// diff or textconv would too (log, grep); a pager needs a terminal; ext:: runs a command as a
// transport; a submodule fetch would follow URLs the repository chooses.
const SAFE_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.sshCommand=ssh",
  "core.askPass=",
  "core.gitProxy=",
  "core.quotepath=off",
  "diff.external=",
  "protocol.ext.allow=never",
  "fetch.recurseSubmodules=false",
  "submodule.recurse=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "advice.detachedHead=false",
];

const SAFE_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_OPTIONAL_LOCKS: "0",
};

export type CodeGitOptions = { input?: string; timeoutMs?: number; okExitCodes?: number[] };

export type CodeGitResult = { stdout: Buffer; exitCode: number; stderr: string };

/** Runs `git -c … <args>` in `dir` (the environment stripped of every other GIT_* variable); fails with INVALID_INPUT naming the command when git fails. */
export async function runCodeGit(dir: string, args: string[], options: CodeGitOptions = {}): Promise<CodeGitResult> {
  const result = await runGitProcess(dir, ["--no-pager", ...args], {
    config: SAFE_CONFIG,
    env: SAFE_ENV,
    allowedEnv: ["GIT_SSH_COMMAND", "GIT_SSL_CAINFO"],
    input: options.input,
    timeoutMs: options.timeoutMs ?? CODE_GIT_TIMEOUT_MS,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  }).catch((error: unknown) => {
    throw new AppError("INTERNAL", "git could not be started on this machine.", { cause: error });
  });
  if (result.failure === "overflow") throw codeGitFailed(args, "its output was too large");
  if (result.failure === "timeout") throw codeGitFailed(args, "it took too long");
  if (result.exitCode !== 0 && !(options.okExitCodes ?? []).includes(result.exitCode)) throw codeGitFailed(args, firstLine(result.stderr));
  return { stdout: result.stdout, exitCode: result.exitCode, stderr: redactUrl(firstLine(result.stderr)) };
}

function codeGitFailed(args: string[], reason: string): AppError {
  return new AppError("INVALID_INPUT", `Reading the code repository failed (git ${args[0]}): ${redactUrl(reason) || "no reason given"}.`);
}

function firstLine(text: string): string {
  return text.split("\n").map((line) => line.trim()).find((line) => line !== "" && !line.startsWith("hint:"))?.slice(0, 300) ?? "";
}

/** A URL may embed a password (https://user:token@host/...): never show or log it. */
export function redactUrl(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@/\s]*@/gi, "$1***@");
}
