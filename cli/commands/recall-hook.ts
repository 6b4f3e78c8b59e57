import { performance } from "node:perf_hooks";
import type { Command } from "../command";
import { EXIT, formatLines } from "../output";

const DEFAULT_BUDGET_MS = 900;

const HELP = `teammem recall-hook — Claude Code's UserPromptSubmit hook: team memories for each prompt

Usage: teammem recall-hook [--budget-ms N] [--explain]   (Claude Code's hook JSON on stdin)

Installed by \`teammem hooks install\`. Reads the prompt, session and folder Claude Code sends,
skips slash commands and one-word prompts, redacts any credential in the prompt, finds the
teammem project whose repository URLs match the checkout's origin, and asks its recall API for
the team memories this session was not given yet (memories already synced into memory/team/
are left to Claude Code's own recall). Prints them as the hook's additionalContext.
Fails open: no login, no project, an unreachable or slow server, or anything unexpected prints
nothing and exits 0. Everything, start-up included, ends within --budget-ms (default ${DEFAULT_BUDGET_MS}).
--explain writes the outcome (recalled, one-word-prompt, no-project, …) to stderr.`;

export const recallHookCommand: Command = {
  name: "recall-hook",
  summary: "Claude Code prompt hook: add the team memories the server recalls for a prompt",
  help: HELP,
  options: { "budget-ms": { type: "string" }, explain: { type: "boolean" } },
  async run({ flags }) {
    const budgetMs = Number(flags["budget-ms"] ?? DEFAULT_BUDGET_MS);
    // From the process's start: the user waits for start-up too.
    const deadline = (Number.isFinite(budgetMs) && budgetMs > 0 ? budgetMs : DEFAULT_BUDGET_MS) - 20;
    // Whatever still holds the process past the budget (a hung git, a socket) must not hold the prompt.
    setTimeout(() => process.exit(EXIT.ok), Math.max(1, deadline + 40 - performance.now())).unref();
    const explain = (reason: string, given: string[] = []) =>
      flags.explain === true && process.stderr.write(formatLines([`teammem recall-hook: ${reason} after ${Math.round(performance.now())} ms${given.length > 0 ? `: ${given.join(", ")}` : ""}`]));
    const input = await readStdin(deadline);
    if (input === null) return explain("input-over-1-MB"), EXIT.ok;
    // Most prompts that are skipped (one word, a slash command) end here, before the settings
    // module and its schema load: that is why this command is not marked needsConfig.
    const { parsePromptHookInput, skipReasonForPrompt } = await import("../../lib/hooks/prompt-hook-input");
    const parsed = parsePromptHookInput(input);
    const skip = parsed ? skipReasonForPrompt(parsed.prompt) : "no-hook-input";
    if (skip) return explain(skip), EXIT.ok;
    let config;
    try {
      config = (await import("../../lib/config")).loadConfig();
    } catch {
      explain("configuration-invalid");
      return EXIT.ok;
    }
    const { runPromptRecallHook } = await import("../../lib/hooks/run-prompt-recall-hook");
    const outcome = await runPromptRecallHook({ input, config, deadline });
    explain(outcome.reason, outcome.given);
    if (outcome.output !== null && performance.now() < deadline + 40) process.stdout.write(`${outcome.output}\n`);
    return EXIT.ok;
  },
};

const MAX_INPUT_BYTES = 1024 * 1024;

/** The hook input; empty on a terminal or when it does not arrive before the deadline; null past 1 MB. */
function readStdin(deadline: number): Promise<string | null> {
  if (process.stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(size > MAX_INPUT_BYTES ? null : Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(() => {
      chunks.length = 0;
      finish();
    }, Math.max(1, deadline - performance.now()));
    process.stdin.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // A prompt of megabytes (a pasted log) is not one recall can rank in the budget: skipped
      // at once, not after reading and parsing all of it past the deadline.
      if (size > MAX_INPUT_BYTES) {
        chunks.length = 0;
        finish();
      }
    });
    process.stdin.once("end", finish);
    process.stdin.once("error", finish);
  });
}
