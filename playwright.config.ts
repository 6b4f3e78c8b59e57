import { spawnSync } from "node:child_process";
import path from "node:path";
import { chromium, defineConfig, devices } from "@playwright/test";
import { DEBIAN_CHROMIUM, findChromium } from "./scripts/find-chromium";

// The e2e run starts the product exactly as a newcomer does (`npm start`), on its own port and
// a fresh data folder, so it proves the README's first command too.
const PORT = 3100;
const baseURL = `http://127.0.0.1:${PORT}`;
export const E2E_DATA_DIR = path.resolve("test-results", "e2e-data");
/** Every seeded account (admin, demo lead and members) starts with this password in e2e runs. */
export const E2E_PASSWORD = "e2e-demo-password";

/** The browser to drive (see scripts/find-chromium.ts for the order); stops with one line when none. */
function chromiumExecutable(): string {
  try {
    return findChromium({
      env: process.env,
      systemPath: DEBIAN_CHROMIUM,
      playwrightPath: () => {
        try {
          return chromium.executablePath();
        } catch {
          return ""; // this Playwright build knows no Chromium for the platform
        }
      },
      install: () => {
        process.stderr.write("e2e: no Chromium found; trying `npx playwright install chromium` once…\n");
        return spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" }).status === 0;
      },
    }).executablePath;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: "test-results/e2e-artifacts",
  timeout: 30_000,
  // Decisions commit to git and reload the page; on a loaded 2-core machine that can take seconds.
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: { baseURL, trace: "off", screenshot: "only-on-failure" },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromiumExecutable(),
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf "${E2E_DATA_DIR}" && npx tsx scripts/start.ts`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    // Includes a production build on a fresh clone: 2-4 minutes on a 2-core machine, more when
    // it is shared; past the limit the whole e2e run fails before its first test.
    timeout: 600_000,
    // Every spec signs in from 127.0.0.1; the brute-force limit itself is proven in the
    // authorization-matrix integration test with the default.
    env: { TEAMMEM_DATA_DIR: E2E_DATA_DIR, TEAMMEM_INITIAL_PASSWORD: E2E_PASSWORD, TEAMMEM_SIGN_IN_LIMIT: "1000", PORT: String(PORT), HOST: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1" },
    stdout: "pipe",
    stderr: "pipe",
  },
});
