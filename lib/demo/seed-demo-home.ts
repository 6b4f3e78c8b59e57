import { existsSync } from "node:fs";
import { mkdir, rename, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { privateMemoryDir, teamMemoryDir } from "../memdir/paths";
import { DEMO_PRIVATE_MEMORIES } from "./demo-private-memories";
import { DEMO_TEAM_MEMORIES } from "./demo-team-memories";
import { DEMO_PROJECT } from "./demo-team";
import { daysBefore, demoIndex, demoMemoryText } from "./seed-demo-store";

/**
 * Lays out the demo member's Claude Code home exactly as Claude Code does (P1, C1, T1):
 * `<home>/projects/<sanitised checkout path>/memory/` with MEMORY.md, topic files and `team/`
 * (as a sync would have left it). Built aside and renamed into place, so a crash leaves either
 * nothing or the whole folder; an existing memory folder is never touched.
 */
export async function seedDemoHome(claudeHome: string, now: Date = new Date()): Promise<boolean> {
  const memoryDir = privateMemoryDir(claudeHome, DEMO_PROJECT.localPath);
  if (existsSync(memoryDir)) return false;

  const staging = `${memoryDir}.seeding-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const teamDir = teamMemoryDir(staging);
  await mkdir(teamDir, { recursive: true });

  for (const memory of DEMO_PRIVATE_MEMORIES) {
    await writeWithAge(path.join(staging, memory.fileName), demoMemoryText(memory), daysBefore(now, memory.ageDays));
  }
  await writeWithAge(path.join(staging, "MEMORY.md"), demoIndex(DEMO_PRIVATE_MEMORIES), now);
  for (const memory of DEMO_TEAM_MEMORIES) {
    await writeWithAge(path.join(teamDir, memory.fileName), demoMemoryText(memory), daysBefore(now, memory.ageDays));
  }
  await writeWithAge(path.join(teamDir, "MEMORY.md"), demoIndex(DEMO_TEAM_MEMORIES), now);

  await rename(staging, memoryDir);
  return true;
}

async function writeWithAge(filePath: string, text: string, mtime: Date): Promise<void> {
  await writeFile(filePath, text);
  await utimes(filePath, mtime, mtime);
}
