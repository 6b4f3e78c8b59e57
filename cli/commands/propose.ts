import { resolveApiTarget } from "../../lib/client/resolve-api-target";
import { proposePrivateMemory } from "../../lib/sync/propose-private-memory";
import type { Command } from "../command";
import { EXIT, linesOf } from "../output";

const HELP = `teammem propose — offer a private memory to the team (reviewed before it lands)

Usage: teammem propose FILE [--project ID] [--json]

FILE is a memory file (usually in this checkout's memory directory). A \`user\` memory is refused:
it is about you and stays private. So is one whose type the server cannot read (\`type: User\`,
\`type:\` given twice, broken frontmatter): it may be a \`user\` memory. A \`feedback\` memory is
sent, and the lead is asked to confirm it is a team convention rather than a personal preference.
The file is scanned first: one that holds a secret is not sent. Prints the proposal's page on the
dashboard. Proposing the same text again while it waits for review sends nothing: it says so,
prints the waiting proposal's page and exits 0 (in --json, \`isAlreadyWaiting\`: true).`;

export const proposeCommand: Command = {
  name: "propose",
  summary: "offer a private memory to the team (user memories stay private; secrets never leave)",
  help: HELP,
  options: { project: { type: "string" } },
  async run({ positionals, flags, config: loadConfig, output }) {
    if (positionals.length !== 1) return output.error("teammem propose: give one FILE.", "", ...linesOf(HELP)), EXIT.usage;
    const config = loadConfig();
    const proposed = await proposePrivateMemory({ config, target: await resolveApiTarget(config), file: positionals[0]!, cwd: process.cwd(), projectId: typeof flags.project === "string" ? flags.project : null });
    if (output.isJson) return output.json(proposed), EXIT.ok;
    if (proposed.isAlreadyWaiting) return output.print(`${proposed.path} already waits for review in ${proposed.projectId} with this text: ${proposed.url} (nothing was sent again).`), EXIT.ok;
    output.print(`Proposed ${proposed.path} to ${proposed.projectId}: ${proposed.url}`);
    if (proposed.needsConventionConfirmation) output.print("It is a feedback memory: the lead confirms it is a team convention (not a personal preference) before approving.");
    return EXIT.ok;
  },
};
