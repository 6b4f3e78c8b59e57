import { readFile } from "node:fs/promises";
import { redactSecrets } from "../../lib/secrets/redact-secrets";
import type { Command } from "../command";
import { EXIT } from "../output";

const HELP = `teammem secrets — find credentials in a memory (or any text) before it is shared

Usage: teammem secrets [FILE|-] [--redact] [--json]

Reads FILE, or standard input with "-" or no argument. Prints each finding with its kind, line,
column and a redacted preview; the secret itself is never printed. --json gives
{"findings": [{"kind","start","end","line","column","preview"}]} with start/end as character
offsets. --redact prints the text with every finding replaced by [REDACTED:<kind>].
Exit 1 when anything is found, 0 when clean, 2 when the file cannot be read.`;

export const secretsCommand: Command = {
  name: "secrets",
  summary: "find (and optionally redact) credentials in a file or stdin",
  help: HELP,
  options: { redact: { type: "boolean" } },
  async run({ positionals, flags, output }) {
    if (positionals.length > 1) {
      output.error(`teammem secrets: give one FILE (or - for stdin).\n\n${HELP}`);
      return EXIT.usage;
    }
    const source = positionals[0] ?? "-";
    let text: string;
    try {
      text = source === "-" ? await readStdin() : await readFile(source, "utf8");
    } catch {
      output.error(`teammem secrets: cannot read ${source}.`);
      return EXIT.usage;
    }
    // secretlint is loaded only by the command that uses it.
    const { scanSecretsWithSecretlint } = await import("../../lib/secrets/scan-secrets-with-secretlint");
    const findings = await scanSecretsWithSecretlint(text);
    if (flags.redact) {
      const redaction = redactSecrets(text);
      if (output.isJson) output.json({ text: redaction.text, replaced: redaction.replaced, blocked: redaction.blocked });
      else process.stdout.write(redaction.text);
      if (redaction.blocked.length > 0) output.error(`teammem secrets: ${redaction.blocked.length} secret(s) could not be bounded with confidence; remove them by hand.`);
      return findings.length > 0 || redaction.replaced.length > 0 ? EXIT.findings : EXIT.ok;
    }
    if (output.isJson) output.json({ findings });
    else if (findings.length === 0) output.print("No secrets found.");
    else for (const finding of findings) output.print(`${source}:${finding.line}:${finding.column}  ${finding.kind}  ${finding.preview}`);
    return findings.length > 0 ? EXIT.findings : EXIT.ok;
  },
};

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}
