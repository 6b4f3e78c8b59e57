import { accessSync, constants, statSync } from "node:fs";

/**
 * Which Chromium the e2e tests (and the brand-asset script) drive, in this order:
 *   1. TEAMMEM_E2E_CHROMIUM, then PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH (a set variable that
 *      points at nothing is an error, not a reason to quietly use another browser);
 *   2. Debian's /usr/bin/chromium;
 *   3. the Chromium Playwright downloaded (`npx playwright install chromium`);
 *   4. that download, tried once; then one line naming what to install.
 */
export type FindChromiumOptions = {
  env: Record<string, string | undefined>;
  /** Debian's package path; a parameter so the decision order can be tested with real files. */
  systemPath: string;
  /** Where Playwright keeps its own Chromium (chromium.executablePath()), downloaded or not. */
  playwrightPath: () => string;
  /** Downloads Playwright's Chromium; true when the command succeeded. */
  install: () => boolean;
};

export type FoundChromium = { executablePath: string; source: string };

const ENV_VARIABLES = ["TEAMMEM_E2E_CHROMIUM", "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH"] as const;

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

export const NO_CHROMIUM_MESSAGE =
  "e2e: no Chromium found. Install one (Debian/Ubuntu: `apt-get install chromium`, or `npx playwright install chromium`) or set TEAMMEM_E2E_CHROMIUM to a Chromium executable.";

export function findChromium({ env, systemPath, playwrightPath, install }: FindChromiumOptions): FoundChromium {
  for (const name of ENV_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (isExecutableFile(value)) return { executablePath: value, source: name };
    throw new Error(`e2e: ${name} is set to ${value}, which is not an executable file; fix or unset it.`);
  }
  if (isExecutableFile(systemPath)) return { executablePath: systemPath, source: "system" };
  const downloaded = playwrightPath();
  if (isExecutableFile(downloaded)) return { executablePath: downloaded, source: "playwright" };
  if (install() && isExecutableFile(playwrightPath())) return { executablePath: playwrightPath(), source: "playwright (just installed)" };
  throw new Error(NO_CHROMIUM_MESSAGE);
}

function isExecutableFile(filePath: string): boolean {
  try {
    accessSync(filePath, constants.X_OK);
    return statSync(filePath).isFile();
  } catch {
    return false;
  }
}
