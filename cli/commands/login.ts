import { readHiddenLine } from "../read-hidden-line";
import { saveCliCredentials } from "../../lib/client/cli-credentials";
import { resolveApiTarget, resolveLoginServer } from "../../lib/client/resolve-api-target";
import { findServerUrlProblem } from "../../lib/client/server-url";
import { callTeammemApi } from "../../lib/client/teammem-api";
import type { Command } from "../command";
import { EXIT } from "../output";

type Me = { user: { email: string; name: string }; projects: { projectId: string; role: string }[] };

export const loginCommand: Command = {
  name: "login",
  summary: "save an API token for this machine (from the Settings page)",
  help: `teammem login — save an API token for the CLI

Usage: teammem login [--server URL] [--json] < token

Reads the token from standard input (paste it when asked), checks it against the server and
saves server + token in ~/.config/teammem/credentials.json (mode 0600; XDG_CONFIG_HOME honoured).
TEAMMEM_TOKEN, when set, is used instead of the saved token. --server defaults to TEAMMEM_SERVER,
then to the server of the saved login.`,
  options: { server: { type: "string" } },
  async run({ flags, config: loadConfig, output }) {
    const config = loadConfig();
    const server = await resolveLoginServer(config, typeof flags.server === "string" ? flags.server : undefined);
    const serverProblem = findServerUrlProblem(server);
    if (serverProblem) {
      output.error(
        serverProblem === "credentials"
          ? "teammem login: --server must not hold a user name or password (the token signs you in, and messages name the server): give only https://host."
          : "teammem login: --server must be an http(s) address such as https://teammem.example.com.",
      );
      return EXIT.usage;
    }
    const token = config.cliToken ?? (await readToken());
    if (!/^tm_[A-Za-z0-9]{40}$/.test(token)) {
      output.error("teammem login: that is not a teammem API token (tm_ followed by 40 letters and digits). Create one on the Settings page.");
      return EXIT.usage;
    }
    const me = await callTeammemApi<Me>({ server, token }, "GET", "/api/me");
    const file = await saveCliCredentials(config.cliConfigDir, { server, token });
    if (output.isJson) output.json({ server, user: me.user, projects: me.projects, savedTo: file });
    else output.print(`Signed in to ${server} as ${me.user.name} <${me.user.email}>; token saved to ${file}.`);
    return EXIT.ok;
  },
};

export const whoamiCommand: Command = {
  name: "whoami",
  summary: "show which account and projects the CLI's token reaches",
  help: `teammem whoami — show the account behind TEAMMEM_TOKEN or the saved login

Usage: teammem whoami [--json]

The server is TEAMMEM_SERVER (with TEAMMEM_TOKEN) or the one saved by \`teammem login\`.`,
  async run({ config: loadConfig, output }) {
    const { server, token } = await resolveApiTarget(loadConfig());
    const me = await callTeammemApi<Me>({ server, token }, "GET", "/api/me");
    if (output.isJson) output.json({ server, ...me });
    else {
      output.print(`${me.user.name} <${me.user.email}> on ${server}`);
      for (const project of me.projects) output.print(`  ${project.projectId}: ${project.role}`);
    }
    return EXIT.ok;
  },
};

async function readToken(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = "";
    for await (const chunk of process.stdin) text += String(chunk);
    return text.trim();
  }
  // Not echoed: a token on the screen is a token in the scrollback.
  return (await readHiddenLine("Paste your API token (it is not shown): ")).trim();
}
