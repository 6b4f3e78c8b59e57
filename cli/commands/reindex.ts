import type { Command } from "../command";
import { EXIT, linesOf } from "../output";

const HELP = `teammem reindex — rebuild the read model from the team store (run on the server)

Usage: teammem reindex [--json]

Fetches the store and rebuilds every row of the read model (one per memory of every project) from
git at its head. Pages, recall and review read these rows; they follow every commit by
themselves, so this is for repair or after restoring a database. Nothing in the store changes.
When the store cannot be reached, the rebuild uses the last fetched state and says so.
Needs the server's configuration (DATABASE_URL, data folder).`;

export const reindexCommand: Command = {
  name: "reindex",
  summary: "rebuild the read model from the team store (on the server)",
  help: HELP,
  async run({ positionals, config: loadConfig, output }) {
    if (positionals.length > 0) {
      output.error(`teammem reindex: unexpected argument "${positionals[0]}".`, "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const config = loadConfig();
    // Loaded here: Prisma and git would slow every other command's start-up.
    const { createDb } = await import("../../lib/db/client");
    const { refreshStore, getStoreStatus } = await import("../../lib/store/read-store");
    const { rebuildReadModel } = await import("../../lib/read-model/sync-read-model");
    const db = createDb(config);
    try {
      const started = Date.now();
      await refreshStore(config, { force: true });
      const unreachableSince = getStoreStatus(config).unreachableSince;
      const result = await rebuildReadModel(config, db);
      const seconds = (Date.now() - started) / 1000;
      if (output.isJson) {
        output.json({ commit: result.commit, memories: result.changedFiles, seconds, storeUnreachableSince: unreachableSince });
      } else {
        if (unreachableSince) output.error(`teammem reindex: the store could not be reached; rebuilt from the last fetched state.`);
        output.print(result.commit ? `Read model rebuilt at ${result.commit.slice(0, 12)}: ${result.changedFiles} memories in ${seconds.toFixed(1)} s.` : "The team store has no commits yet: the read model is empty.");
      }
      return EXIT.ok;
    } finally {
      await db.$disconnect();
    }
  },
};
