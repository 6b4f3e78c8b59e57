import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../files/write-file-atomically";
import * as z from "zod/mini";
import { AppError } from "../errors";
import { parseJsonOrNull } from "../parse-json";

const CREDENTIALS_FILE = "credentials.json";
const Credentials = z.object({ server: z.url(), token: z.string().check(z.regex(/^tm_[A-Za-z0-9]{40}$/)) });
export type CliCredentials = z.infer<typeof Credentials>;

/** Saves what `teammem login` learned: owner-only permissions, written atomically. */
export async function saveCliCredentials(configDir: string, credentials: CliCredentials): Promise<string> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const target = path.join(configDir, CREDENTIALS_FILE);
  await writeFileAtomically(target, JSON.stringify(credentials, null, 2) + "\n");
  return target;
}

/** The saved credentials, or null when `teammem login` was never run. */
export async function readCliCredentials(configDir: string): Promise<CliCredentials | null> {
  let text: string;
  try {
    text = await readFile(path.join(configDir, CREDENTIALS_FILE), "utf8");
  } catch {
    return null; // never logged in
  }
  const parsed = Credentials.safeParse(parseJsonOrNull(text));
  if (!parsed.success) {
    throw new AppError("INVALID_INPUT", `${path.join(configDir, CREDENTIALS_FILE)} is damaged; run \`teammem login\` again.`);
  }
  return parsed.data;
}
