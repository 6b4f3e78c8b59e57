/**
 * Compiles the CLI (cli/main.ts and what it imports from lib/ and generated/) to JavaScript in
 * generated/cli/, so `teammem` starts without a TypeScript loader. Run by postinstall (after the
 * Prisma clients are generated, which the bundle includes) and by `npm run build:cli`.
 * Needs no network: esbuild ships as tsx's dependency, its binary comes in the platform package.
 *
 *   node scripts/build-cli.mjs             build
 *   node scripts/build-cli.mjs --if-stale  build only when the compiled CLI is missing or stale
 *
 * Plain .mjs so it runs before anything else is set up (postinstall has no tsx guarantee).
 */
import { mkdirSync, rmSync, renameSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { BUILD_RECORD, COMPILED_DIR, findCompiledCli } from "../cli/find-compiled-cli.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LOCK_DIR = `${ROOT}generated/.build-cli.lock`;
const LOCK_WAIT_MS = 60_000;
// A lock left by a build that was killed; a real build takes a second or two.
const STALE_LOCK_MS = 120_000;

// Plain JavaScript packages the everyday commands load at start, bundled in: Node resolving and
// reading their dozens of files cost more than the code itself (gray-matter 50-100 ms alone,
// 15-20 ms bundled; zod about half). Every other package stays in node_modules, loaded as under
// tsx: Prisma's runtime, better-sqlite3's native module, better-auth and the SDK expect their
// own package layout, and the commands that use them load them lazily anyway.
const BUNDLED_PACKAGES = new Set(["gray-matter", "zod", "minisearch", "diff"]);

// The bundled CommonJS (gray-matter, js-yaml) calls require() for Node's own modules. js-yaml 3
// also probes for esprima, to read `!!js/function` in its unsafe schema, which gray-matter never
// uses (it loads with the safe one); refusing it saves loading a JavaScript parser on every run.
const REQUIRE_FOR_BUNDLED_COMMONJS = `import { createRequire as createRequireForBundle } from "node:module";
const requireFromNodeModules = createRequireForBundle(import.meta.url);
const require = (id) => {
  if (id === "esprima") throw new Error("esprima is not available to the teammem CLI");
  return requireFromNodeModules(id);
};`;

const bundleOnlyPlainPackages = {
  name: "bundle-only-plain-packages",
  setup(build) {
    // zod's namespace object re-exports every message locale (~60, a third of the bundle); the
    // CLI's schemas only ever speak English (zod's default), so the rest are left out.
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/node_modules/zod/") ? { path: "zod-english-only", namespace: "zod-locales" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: `export { default as en } from ${JSON.stringify(`${ROOT}node_modules/zod/v4/locales/en.js`)};`,
      resolveDir: ROOT,
    }));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@/")) return undefined; // the repository's own path alias
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      // Imports from inside a bundled package (gray-matter's js-yaml, …) are bundled with it.
      if (args.importer.includes("/node_modules/")) return undefined;
      return BUNDLED_PACKAGES.has(packageName(args.path)) ? undefined : { path: args.path, external: true };
    });
  },
};

function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

async function main() {
  const onlyIfStale = process.argv.includes("--if-stale");
  if (onlyIfStale && findCompiledCli()) return;
  await withLock(async () => {
    if (onlyIfStale && findCompiledCli()) return; // another process built it while we waited
    await buildInto(COMPILED_DIR);
  });
}

async function buildInto(targetDir) {
  const startedAtMs = Date.now();
  const workDir = `${ROOT}generated/cli.tmp-${process.pid}`;
  rmSync(workDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: "cli/main.ts" },
    bundle: true,
    // Each command and the heavy lib/ modules they import dynamically become their own chunk, so
    // `teammem --version` or `teammem scan` load only what they use.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    plugins: [bundleOnlyPlainPackages],
    banner: { js: REQUIRE_FOR_BUNDLED_COMMONJS },
    // generated/ like the Prisma clients: git and ESLint already leave it alone. Flat, two
    // levels below the repository like lib/<area>/: modules that locate files from
    // import.meta.url (lib/db/migrate.ts → the repository root) still find them from a chunk.
    outdir: workDir,
    chunkNames: "[name]-[hash]",
    // Start-up parses every chunk a command loads: without whitespace and with shorter syntax
    // that is ~1.5 ms less of `teammem recall` (docs/benchmarks.md, "The CLI"). Names are kept,
    // so stack traces still say which function; `node --enable-source-maps` maps them to lib/.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    sourcesContent: false,
    metafile: true,
    logLevel: "warning",
  });
  // The freshness check covers the repository's sources; an npm install rebuilds for packages.
  // (Virtual modules, named "namespace:path", have no file to check.)
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("node_modules/") && !input.includes(":"));
  writeFileSync(`${workDir}/build.json`, JSON.stringify({ startedAtMs, inputs }, null, 1) + "\n");
  // Swap the whole folder: a CLI starting meanwhile sees either the old build, the new one or
  // none (then it uses the loader), never half of one.
  const oldDir = `${ROOT}generated/cli.old-${process.pid}`;
  const hadBuild = statSync(targetDir, { throwIfNoEntry: false }) !== undefined;
  if (hadBuild) renameSync(targetDir, oldDir);
  renameSync(workDir, targetDir);
  if (hadBuild) rmSync(oldDir, { recursive: true, force: true });
  process.stdout.write(`teammem CLI compiled to ${targetDir} (${inputs.length} sources, ${Date.now() - startedAtMs} ms); see ${BUILD_RECORD.slice(ROOT.length)}\n`);
}

/** One build at a time: postinstall, `npm run build:cli` and parallel test files may overlap. */
async function withLock(task) {
  mkdirSync(`${ROOT}generated`, { recursive: true });
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const lockAge = Date.now() - (statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (lockAge > STALE_LOCK_MS) rmSync(LOCK_DIR, { recursive: true, force: true });
      else if (Date.now() > giveUpAt) throw new Error(`another CLI build holds ${LOCK_DIR}; remove it if no build is running`, { cause: error });
      else await sleep(100);
    }
  }
  try {
    await task();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

await main();
