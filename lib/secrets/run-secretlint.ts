import { performance } from "node:perf_hooks";
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from "@secretlint/types";

// One lint at a time: the cleanup below clears the profiler's marks, and a concurrent lint whose
// marks vanished mid-run would make the profiler's measure() reject with nobody listening.
let queue: Promise<unknown> = Promise.resolve();

/**
 * The one place teammem calls secretlint. Runs lints one at a time and, after each, empties the
 * secretlint profiler, which otherwise keeps every performance mark forever and searches that
 * list on each new mark: measured here, 10,000 notes left a process busy for minutes after.
 */
export function runSecretlint(text: string, config: SecretLintCoreConfig): Promise<SecretLintCoreResultMessage[]> {
  const run = queue.then(() => lintOnce(text, config));
  queue = run.catch(() => undefined);
  return run;
}

async function lintOnce(text: string, config: SecretLintCoreConfig): Promise<SecretLintCoreResultMessage[]> {
  const result = await lintSource({
    source: { content: text, filePath: "memory.md", ext: ".md", contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  await releaseProfilerEntries();
  return result.messages;
}

async function releaseProfilerEntries(): Promise<void> {
  // The profiler's observer sees this run's marks on a later turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  const [marks, measures] = await Promise.all([secretLintProfiler.getEntries(), secretLintProfiler.getMeasures()]);
  for (const name of new Set(marks.map((entry) => entry.name))) performance.clearMarks(name);
  for (const name of new Set(measures.map((entry) => entry.name))) performance.clearMeasures(name);
  // getEntries/getMeasures hand back the profiler's own arrays; emptying them is the release.
  marks.length = 0;
  measures.length = 0;
}
