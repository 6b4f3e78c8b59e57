#!/usr/bin/env node
// Launcher for `teammem` (the package's bin). Runs the compiled CLI in generated/cli/ that
// `npm install` / `npm ci` build (postinstall → scripts/build-cli.mjs): starting tsx and
// transpiling the TypeScript on every run cost ~0.4 s before the first line of teammem ran.
// When the bundle is missing or any source it was built from changed since (a developer's
// edit, a git checkout), it falls back to running the TypeScript through tsx, so what runs is
// always the code on disk; `npm run build:cli` makes it fast again.
import { findCompiledCli } from "./find-compiled-cli.mjs";

const compiledEntry = findCompiledCli();
const { main } = compiledEntry ? await import(compiledEntry) : await importThroughTsx();
process.exitCode = await main(process.argv.slice(2));

async function importThroughTsx() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("./main.ts");
}
