/**
 * `npm test`: every test (unit + integration with vitest, then e2e with Playwright), then one
 * summary line counting passed and failed tests across both runners.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, "vitest.json");
const e2eJson = path.join(results, "e2e.json");
for (const file of [vitestJson, e2eJson]) rmSync(file, { force: true });

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" };
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

const vitest = spawnSync(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${vitestJson}`], { cwd: root, stdio: "inherit", env });
const e2e = spawnSync(bin("playwright"), ["test"], { cwd: root, stdio: "inherit", env });

const unit = readVitest(vitestJson);
const browser = readPlaywright(e2eJson);
const passed = unit.passed + browser.passed;
const failed = unit.failed + browser.failed + (unit.missing ? 1 : 0) + (browser.missing ? 1 : 0);
console.log(`\nvitest: ${unit.passed} passed, ${unit.failed} failed${unit.missing ? " (no report: the run crashed)" : ""}`);
console.log(`playwright: ${browser.passed} passed, ${browser.failed} failed${browser.missing ? " (no report: the run crashed)" : ""}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || vitest.status !== 0 || e2e.status !== 0 ? 1 : 0);

function readVitest(file: string) {
  if (!existsSync(file)) return { passed: 0, failed: 0, missing: true };
  const report = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number };
  return { passed: report.numPassedTests, failed: report.numFailedTests, missing: false };
}

function readPlaywright(file: string) {
  if (!existsSync(file)) return { passed: 0, failed: 0, missing: true };
  const report = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } };
  return { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected, missing: false };
}
