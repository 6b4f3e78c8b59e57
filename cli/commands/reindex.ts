import type { Command } from "../command";
import { EXIT, linesOf } from "../output";

const HELP = `teammem reindex — rebuild the read model from the team store (run on the server)

Usage: teammem reindex [--json]

Fetches the store and rebuilds every row of the read model (one per memory of every project) from
git at its head. Pages, recall and review read these rows; they follow every commit by
themselves, so this is for repair or after restoring a database. Nothing in the store changes.
When the store cannot be reached, the rebuild uses the last fetched state and says why.
A damaged store clone, or a store with no commits where the read model records one, rebuilds
nothing: it says what is wrong and exits 1, and the read model keeps its rows.
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
    const { getStoreStatus } = await import("../../lib/store/read-store");
    const { reindexReadModel } = await import("../../lib/read-model/reindex-read-model");
    const db = createDb(config);
    try {
      const started = Date.now();
      const result = await reindexReadModel(config, db);
      const seconds = (Date.now() - started) / 1000;
      if (output.isJson) {
        output.json({ commit: result.commit, memories: result.memories, seconds, storeUnreachableSince: getStoreStatus(config).unreachableSince, storeProblem: result.storeProblem });
      } else {
        if (result.storeProblem) output.error(`teammem reindex: rebuilt from the last fetched state, since the store could not be fetched: ${result.storeProblem}`);
        output.print(result.commit ? `Read model rebuilt at ${result.commit.slice(0, 12)}: ${result.memories} memories in ${seconds.toFixed(1)} s.` : "The team store has no commits yet: the read model is empty.");
      }
      return EXIT.ok;
    } finally {
      await db.$disconnect();
    }
  },
};
