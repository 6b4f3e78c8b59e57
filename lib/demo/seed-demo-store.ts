import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";
import { buildIndex } from "../memdir/build-index";
import { serializeMemory } from "../memdir/frontmatter";
import { commitAll, pushMain, resolveRef, withRepoLock } from "../store/git";
import { projectDir, serializeStoreManifest, STORE_FORMAT_VERSION, STORE_MANIFEST_FILE } from "../store/store-manifest";
import { DEMO_TEAM_MEMORIES, type DemoMemory } from "./demo-team-memories";
import { DEMO_MEMBERS, DEMO_PROJECT } from "./demo-team";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Writes the demo project into an EMPTY store: one backdated commit per memory (author = the
 * member who wrote it), each with the regenerated MEMORY.md, then one push. A store that already
 * has commits is left alone, so this can never overwrite a team's memory.
 */
export async function seedDemoStore(config: Config, now: Date = new Date()): Promise<boolean> {
  return withRepoLock(config.storeCloneDir, async () => {
    if (await resolveRef(config.storeCloneDir, "refs/remotes/origin/main")) return false;
    const clone = config.storeCloneDir;
    const oldestAge = Math.max(...DEMO_TEAM_MEMORIES.map((memory) => memory.ageDays)) + 1;

    await writeText(clone, STORE_MANIFEST_FILE, serializeStoreManifest({
      formatVersion: STORE_FORMAT_VERSION,
      projects: [{ id: DEMO_PROJECT.id, name: DEMO_PROJECT.name, remote: DEMO_PROJECT.remote }],
    }));
    await commitAll({
      dir: clone,
      message: `Create project ${DEMO_PROJECT.name}\n\nSource: demo`,
      author: DEMO_MEMBERS.lena,
      date: daysBefore(now, oldestAge),
    });

    const oldestFirst = [...DEMO_TEAM_MEMORIES].sort((a, b) => b.ageDays - a.ageDays);
    const committed: DemoMemory[] = [];
    for (const memory of oldestFirst) {
      committed.push(memory);
      await writeText(clone, `${projectDir(DEMO_PROJECT.id)}/${memory.fileName}`, demoMemoryText(memory));
      await writeText(clone, `${projectDir(DEMO_PROJECT.id)}/MEMORY.md`, demoIndex(committed));
      await commitAll({
        dir: clone,
        message: `Add ${memory.type} memory: ${memory.name}\n\nSource: demo\nApproved-by: ${DEMO_MEMBERS.lena.name} <${DEMO_MEMBERS.lena.email}>`,
        author: DEMO_MEMBERS[memory.author],
        committer: DEMO_MEMBERS.lena,
        date: daysBefore(now, memory.ageDays),
      });
    }
    await pushMain(clone);
    return true;
  });
}

export function demoMemoryText(memory: Pick<DemoMemory, "name" | "description" | "type" | "body">): string {
  return serializeMemory({ name: memory.name, description: memory.description, type: memory.type }, memory.body);
}

/** Newest first, as Claude Code's own index tends to grow at the top. */
export function demoIndex(memories: Pick<DemoMemory, "fileName" | "name" | "description" | "ageDays">[]): string {
  const newestFirst = [...memories].sort((a, b) => a.ageDays - b.ageDays);
  return buildIndex(newestFirst.map((memory) => ({ file: memory.fileName, title: memory.name, hook: shortHook(memory, 150) })));
}

// C7: index lines should stay under ~150 characters; the hook gives way, cut at a word.
function shortHook(memory: Pick<DemoMemory, "fileName" | "name" | "description">, maxLine: number): string {
  const room = maxLine - `- [${memory.name}](${memory.fileName}) — `.length;
  if (memory.description.length <= room) return memory.description;
  const cut = memory.description.slice(0, Math.max(0, room - 1));
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

async function writeText(root: string, relativePath: string, text: string): Promise<void> {
  const target = path.join(root, relativePath);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text);
}
