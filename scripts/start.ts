/**
 * `npm start` (and `npm run dev`): prepare everything, build when needed, serve.
 *   1. validate configuration           (lib/config.ts)
 *   2. data folder, database migrations, team store and its clone, demo team once (lib/setup)
 *   3. build the app if there is no build or a source file changed since
 *   4. serve on HOST:PORT (127.0.0.1:3000 by default) with scripts/serve.ts
 * Flags: --dev (next dev instead of a production build), --setup-only (stop after step 2).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { childProcessEnv, loadConfig, type Config } from "../lib/config";
import { isAppError } from "../lib/errors";
import { displayRemote } from "../lib/store/git";
import { runSetup } from "../lib/setup/run-setup";

const root = path.resolve(import.meta.dirname, "..");
const isDev = process.argv.includes("--dev");
const isSetupOnly = process.argv.includes("--setup-only");

async function main(): Promise<void> {
  const config = loadConfig();
  console.log(`teammem: data folder ${config.dataDir}`);
  const report = await runSetup(config);
  console.log(
    `teammem: database ${report.createdDatabase ? "created" : "ready"} (${config.databaseKind}), ` +
      `store ${report.createdStore ? "created" : "ready"} (${displayRemote(config.storeRemote)})` +
      (report.seededDemo ? ", demo team seeded" : ""),
  );
  printCredentialsOnce(report.issuedCredentials);
  if (isSetupOnly) return;

  if (!isDev) ensureBuild(config);
  serve(config);
}

// Rebuild when there is no build yet or a source file is newer than it.
function ensureBuild(config: Config): void {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (existsSync(buildId) && newestSourceMtime() <= statSync(buildId).mtimeMs) return;
  console.log("teammem: building the dashboard (first start or changed sources, about a minute)…");
  run("next", ["build"], config);
}

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  // generated/cli is the CLI's bundle (rebuilt at install and by tests): the dashboard does not use it.
  for (const dir of ["app", "lib", "public", "generated/prisma", "generated/prisma-pg"]) visit(path.join(root, dir));
  for (const file of ["next.config.ts", "package-lock.json"]) {
    if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  }
  return newest;
}

function run(bin: string, args: string[], config: Config): void {
  const result = spawnSync(path.join(root, "node_modules", ".bin", bin), args, {
    cwd: root,
    stdio: "inherit",
    env: childProcessEnv({ DATABASE_URL: databaseUrlFor(config), NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" }),
  });
  if (result.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (exit ${result.status})`);
}

// Production runs scripts/serve.ts (Next.js's handler, with the agents' recall route in front of
// it); development runs `next dev`, whose recompiling the recall route then goes through.
function serve(config: Config): void {
  const [command, args] = isDev
    ? [path.join(root, "node_modules", ".bin", "next"), ["dev", "-H", config.host, "-p", String(config.port)]]
    : [process.execPath, ["--import", "tsx", path.join(root, "scripts", "serve.ts")]];
  console.log(`teammem: starting the server on http://${config.host}:${config.port}`);
  const server = spawn(command, args, {
    cwd: root,
    stdio: "inherit",
    env: childProcessEnv({ DATABASE_URL: databaseUrlFor(config), NEXT_TELEMETRY_DISABLED: "1" }),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  // The server's own exit code (1 when it cannot listen); killed by a signal is a failure too.
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// The contract: a new account's one-time password is shown once, here, and nowhere else.
function printCredentialsOnce(credentials: { email: string; password: string; role: string }[]): void {
  if (credentials.length === 0) return;
  console.log("\nteammem: accounts created. Their passwords are shown ONCE; note them now:");
  for (const credential of credentials) console.log(`  ${credential.email.padEnd(24)} ${credential.password}   (${credential.role})`);
  console.log("Lost one? Run: npx teammem users reset-password <email>\n");
}

function databaseUrlFor(config: Config): string {
  return config.sqliteFile ? `file:${config.sqliteFile}` : config.databaseUrl;
}

main().catch((error: unknown) => {
  // One clear sentence for problems the operator can fix; anything else is a bug worth a stack.
  if (isAppError(error)) console.error(`teammem: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
