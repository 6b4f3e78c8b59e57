import { mkdir } from "node:fs/promises";
import path from "node:path";
import { loadConfig, type Config } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureStore } from "@/lib/store/ensure-store";
import { initBareRepository } from "@/lib/store/git";

/**
 * The environment of one app instance of a team server in `root`: its own data folder and store
 * clone, one shared SQLite database and bare store, one shared auth secret (README:
 * TEAMMEM_AUTH_SECRET). The demo is seeded by the first instance only.
 */
export function instanceEnv(root: string, name: string, options: { isFirst: boolean }): Record<string, string> {
  return {
    TEAMMEM_DATA_DIR: path.join(root, name),
    TEAMMEM_STORE_REMOTE: path.join(root, "store.git"),
    DATABASE_URL: `file:${path.join(root, "shared.db")}`,
    TEAMMEM_DEMO: options.isFirst ? "on" : "off",
    TEAMMEM_CLAUDE_HOME: "",
    TEAMMEM_AUTH_SECRET: "a-shared-instance-secret-of-at-least-32-chars",
  };
}

/** Two instances in one process: A set up with the demo, B with its own clone of the same store. */
export async function setUpTwoInstances(root: string): Promise<{ configA: Config; configB: Config; remote: string }> {
  const remote = path.join(root, "store.git");
  await initBareRepository(remote);
  const configA = loadConfig(instanceEnv(root, "a", { isFirst: true }), root);
  await runSetup(configA);
  const configB = loadConfig(instanceEnv(root, "b", { isFirst: false }), root);
  await mkdir(configB.dataDir, { recursive: true });
  await ensureStore(configB);
  return { configA, configB, remote };
}
