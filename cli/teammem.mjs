#!/usr/bin/env node
// Launcher for `teammem` (the package's bin). Runs the compiled CLI in generated/cli/ that
// `npm install` / `npm ci` build (postinstall → scripts/build-cli.mjs): starting tsx and
// transpiling the TypeScript on every run cost ~0.4 s before the first line of teammem ran.
// When the bundle is missing or any source it was built from changed since (a developer's
// edit, a git checkout), it falls back to running the TypeScript through tsx, so what runs is
// always the code on disk; `npm run build:cli` makes it fast again.
import { setImmediate as nextTurn } from "node:timers/promises";
import { findCompiledCli } from "./find-compiled-cli.mjs";

const compiledEntry = findCompiledCli();
const { main } = compiledEntry ? await import(compiledEntry) : await importThroughTsx();
const exitCode = await main(process.argv.slice(2));
// The command is done and awaited all it started; once what it wrote has left, the process ends
// here. Left to end by itself, Node first finishes V8's pending garbage-collection work: ~5–10 ms
// after scanning 10,000 memories, on every such command.
// A write error still on its way (a full disk) is reported first: cli/output.ts ends with exit 1.
await nextTurn();
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(exitCode);

async function importThroughTsx() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("./main.ts");
}

/** Resolves once everything written to the stream so far is handed to the system (or it closed). */
function flushed(stream) {
  if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once("close", resolve);
    stream.write("", resolve);
  });
}
