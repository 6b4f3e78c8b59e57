import type { Command } from "../command";
import { EXIT, linesOf } from "../output";

const HELP = `teammem users — manage accounts directly in the database (run on the server)

Usage:
  teammem users list [--json]
  teammem users create EMAIL --name NAME [--admin] [--json]
  teammem users reset-password EMAIL [--json]

create and reset-password print a one-time password once. reset-password also signs the
account out everywhere. These commands need the server's configuration (DATABASE_URL, data folder).`;

export const usersCommand: Command = {
  name: "users",
  summary: "list accounts, create one, or reset a password (on the server)",
  help: HELP,
  options: { name: { type: "string" }, admin: { type: "boolean" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    const [action, email, ...rest] = positionals;
    const isKnown = action === "list" || action === "create" || action === "reset-password";
    if (!isKnown || (action !== "list" && !email) || rest.length > 0 || (action === "create" && typeof flags.name !== "string")) {
      output.error(`teammem users: ${!isKnown ? `unknown action "${action ?? ""}"` : "missing or extra arguments"}.`, "", ...linesOf(HELP));
      return EXIT.usage;
    }
    const config = loadConfig();
    // Loaded here: Prisma and better-auth would slow every other command's start-up.
    const { createAuth } = await import("../../lib/auth/auth");
    const { ensureAuthSecret } = await import("../../lib/auth/auth-secret");
    const { createAccount, listUsers, resetPassword } = await import("../../lib/auth/manage-users");
    const { createDb } = await import("../../lib/db/client");
    const db = createDb(config);
    try {
      const auth = createAuth({ config, db, secret: await ensureAuthSecret(config) });
      if (action === "list") {
        const users = await listUsers(db);
        if (output.isJson) output.json({ users });
        else for (const user of users) output.print(`${user.email.padEnd(32)} ${user.name}${user.isAdmin ? " (admin)" : ""}`);
        return EXIT.ok;
      }
      const password =
        action === "create"
          ? (await createAccount(auth, db, { email: email!, name: String(flags.name), isAdmin: flags.admin === true })).password
          : await resetPassword(auth, db, email!);
      if (output.isJson) output.json({ email: email!.toLowerCase(), oneTimePassword: password });
      else output.print(`One-time password for ${email!.toLowerCase()} (shown once): ${password}`);
      return EXIT.ok;
    } finally {
      await db.$disconnect();
    }
  },
};
