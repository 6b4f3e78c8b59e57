#!/usr/bin/env node
// Launcher for `npx teammem`: the CLI is TypeScript, run through tsx's loader so no build step is
// needed after `npm install`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2));
