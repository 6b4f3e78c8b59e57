import type { Command } from "../command";
import { EXIT } from "../output";

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check configuration, data folder, store, database and model key",
  help: `teammem doctor — check configuration, data folder, store, database and model key

Usage: teammem doctor [--json]

Exit code 0 when every check passes (warnings allowed), 1 when one fails.`,
  async run({ positionals, config: loadConfig, output }) {
    if (positionals.length > 0) {
      output.error(`teammem doctor: unexpected argument "${positionals[0]}".`);
      return EXIT.usage;
    }
    const config = loadConfig();
    // Loaded here, not at the top: Prisma and git cost every other command ~1 s of start-up.
    const { diagnose } = await import("../../lib/setup/diagnose");
    const { displayRemote } = await import("../../lib/store/git");
    const checks = await diagnose(config);
    const hasFailure = checks.some((check) => check.status === "fail");
    const summary = {
      dataDir: config.dataDir,
      database: { kind: config.databaseKind, location: config.sqliteFile ?? "DATABASE_URL (PostgreSQL)" },
      store: { remote: displayRemote(config.storeRemote), embedded: config.isEmbeddedStore, clone: config.storeCloneDir },
      claudeHome: config.claudeHome,
      model: { keyPresent: config.anthropicApiKey !== null, name: config.recallModel, baseUrl: config.anthropicBaseUrl },
      server: { host: config.host, port: config.port, publicUrl: config.publicUrl },
    };
    if (output.isJson) {
      output.json({ ok: !hasFailure, config: summary, checks });
    } else {
      output.print(`data folder   ${summary.dataDir}`);
      output.print(`database      ${summary.database.kind}: ${summary.database.location}`);
      output.print(`team store    ${summary.store.remote}${summary.store.embedded ? " (embedded)" : ""}`);
      output.print(`claude home   ${summary.claudeHome ?? "(not set)"}`);
      output.print(`model key     ${summary.model.keyPresent ? "present" : "not set (local ranker)"}`);
      output.print("");
      for (const check of checks) output.print(`${{ ok: "ok  ", warn: "warn", fail: "FAIL" }[check.status]} ${check.name}: ${check.detail}`);
    }
    return hasFailure ? EXIT.findings : EXIT.ok;
  },
};
