import { mkdirSync, writeFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findChromium, NO_CHROMIUM_MESSAGE } from "@/scripts/find-chromium";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

/** A real file standing in for a browser executable. */
async function fakeBrowser(dir: string, name: string, mode = 0o755): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "#!/bin/sh\nexit 0\n");
  await chmod(file, mode);
  return file;
}

describe("findChromium", () => {
  it("prefers TEAMMEM_E2E_CHROMIUM, then PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, then the system, then Playwright's download", async () => {
    const dir = await tempDir();
    const own = await fakeBrowser(dir, "own/chrome");
    const playwrightVariable = await fakeBrowser(dir, "pw-var/chrome");
    const system = await fakeBrowser(dir, "usr/bin/chromium");
    const downloaded = await fakeBrowser(dir, "ms-playwright/chrome");
    const installs: string[] = [];
    const base = { systemPath: system, playwrightPath: () => downloaded, install: () => (installs.push("install"), true) };

    expect(findChromium({ ...base, env: { TEAMMEM_E2E_CHROMIUM: own, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: playwrightVariable } }).executablePath).toBe(own);
    expect(findChromium({ ...base, env: { PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: playwrightVariable } }).executablePath).toBe(playwrightVariable);
    expect(findChromium({ ...base, env: {} }).executablePath).toBe(system);
    expect(findChromium({ ...base, env: {}, systemPath: path.join(dir, "absent") }).executablePath).toBe(downloaded);
    expect(installs).toEqual([]); // nothing is downloaded while a browser exists
  });

  it("does not treat a non-executable file or a folder as a browser", async () => {
    const dir = await tempDir();
    const notExecutable = await fakeBrowser(dir, "usr/bin/chromium", 0o644);
    const downloaded = await fakeBrowser(dir, "ms-playwright/chrome");
    const found = findChromium({ env: {}, systemPath: notExecutable, playwrightPath: () => downloaded, install: () => false });
    expect(found.executablePath).toBe(downloaded);
    expect(findChromium({ env: {}, systemPath: dir, playwrightPath: () => downloaded, install: () => false }).executablePath).toBe(downloaded);
  });

  it("a variable pointing at nothing is an error naming it, not a silent fallback", async () => {
    const dir = await tempDir();
    const system = await fakeBrowser(dir, "usr/bin/chromium");
    expect(() => findChromium({ env: { TEAMMEM_E2E_CHROMIUM: path.join(dir, "typo") }, systemPath: system, playwrightPath: () => "", install: () => true })).toThrow(/TEAMMEM_E2E_CHROMIUM is set to .*typo/);
  });

  it("with no browser anywhere, tries the download once and uses it", async () => {
    const dir = await tempDir();
    const downloadTarget = path.join(dir, "ms-playwright/chrome");
    let installs = 0;
    const found = findChromium({
      env: {},
      systemPath: path.join(dir, "absent"),
      playwrightPath: () => downloadTarget,
      install: () => {
        installs++;
        mkdirSync(path.dirname(downloadTarget), { recursive: true });
        writeFileSync(downloadTarget, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
        return true;
      },
    });
    expect(found.executablePath).toBe(downloadTarget);
    expect(installs).toBe(1);
  });

  it("when the download fails too, stops with one line naming what to install", async () => {
    const dir = await tempDir();
    let installs = 0;
    const attempt = () => findChromium({ env: {}, systemPath: path.join(dir, "absent"), playwrightPath: () => path.join(dir, "never"), install: () => (installs++, false) });
    expect(attempt).toThrow(NO_CHROMIUM_MESSAGE);
    expect(installs).toBe(1);
    expect(NO_CHROMIUM_MESSAGE).not.toContain("\n");
    expect(NO_CHROMIUM_MESSAGE).toMatch(/apt-get install chromium.*TEAMMEM_E2E_CHROMIUM/);
  });
});
