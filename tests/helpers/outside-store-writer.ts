import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "@/lib/config";
import { refreshStore } from "@/lib/store/read-store";

/**
 * Someone committing to the team store with plain git, outside teammem (a push from elsewhere):
 * a clone of the bare store, commits dated in the past (a week ago by default, as a member's
 * machine meets them), pushed to `main`; then the server is told to fetch.
 */
export function outsideStoreWriter(config: Config, clone: string) {
  execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
  let count = 0;
  return {
    /** Writes (content) or deletes (null) files of a project's folder in one commit; returns its id. */
    async commit(projectId: string, files: Record<string, string | null>, options: { daysAgo?: number } = {}): Promise<string> {
      const folder = path.join(clone, "projects", projectId);
      await mkdir(folder, { recursive: true });
      for (const [name, content] of Object.entries(files)) {
        if (content === null) await rm(path.join(folder, name), { force: true });
        else await mkdir(path.dirname(path.join(folder, name)), { recursive: true }).then(() => writeFile(path.join(folder, name), content));
      }
      const date = new Date(Date.now() - (options.daysAgo ?? 7) * 86_400_000).toISOString();
      const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      const git = (args: string[]) => execFileSync("git", ["-C", clone, ...args], { env }).toString().trim();
      git(["add", "-A", "."]);
      git(["-c", "user.name=Outside", "-c", "user.email=outside@example.invalid", "commit", "--allow-empty", "-qm", `outside change ${++count}`]);
      git(["push", "-q", "origin", "HEAD:main"]);
      await refreshStore(config, { force: true });
      return git(["rev-parse", "HEAD"]);
    },
  };
}
