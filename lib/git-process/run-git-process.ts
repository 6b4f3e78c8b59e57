import { spawn } from "node:child_process";
import { childProcessEnv } from "../config";

/**
 * Runs one git process and collects its output: the part the team store's runner
 * (lib/store/git.ts) and the code repository's (lib/code-repo/code-git.ts) share. Each adds its
 * own settings and turns failures into its own errors.
 *
 * It resolves when the process closes. (simple-git, used before, waited 50 ms more after every
 * command that printed nothing, in case output came late: update-ref, merge-base --is-ancestor,
 * cat-file -e, a fetch with nothing new. Two update-refs made each approval 100 ms slower.)
 */
export type GitProcessOptions = {
  /** `-c name=value` settings, before the command. */
  config: string[];
  /** Variables set for git; every other GIT_* variable of this process is removed. */
  env: Record<string, string>;
  /** GIT_* variables of this process that pass through (how operators reach a remote). */
  allowedEnv: string[];
  input?: string | Buffer;
  timeoutMs: number;
  maxOutputBytes: number;
};

export type GitProcessResult = { stdout: Buffer; stderr: string; exitCode: number; failure: "timeout" | "overflow" | null };

export function runGitProcess(dir: string, args: string[], options: GitProcessOptions): Promise<GitProcessResult> {
  const argv = [...options.config.flatMap((setting) => ["-c", setting]), ...args];
  const allowed = new Set([...options.allowedEnv, ...Object.keys(options.env)]);
  const env = Object.fromEntries(Object.entries(childProcessEnv(options.env)).filter(([name]) => !name.startsWith("GIT_") || allowed.has(name)));
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, { cwd: dir, env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let failure: GitProcessResult["failure"] = null;
    const timer = setTimeout(() => {
      failure = "timeout";
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxOutputBytes) {
        failure = "overflow";
        child.kill("SIGKILL");
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 8000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(chunks), stderr, exitCode: code ?? -1, failure });
    });
    child.stdin.on("error", () => undefined); // git may exit before reading all input
    child.stdin.end(options.input ?? "");
  });
}
