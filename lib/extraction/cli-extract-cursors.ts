import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../files/write-file-atomically";
import * as z from "zod/mini";
import { parseJsonOrNull } from "../parse-json";

const CURSORS_FILE = "extract-cursors.json";
const Cursors = z.record(z.string(), z.string());

/**
 * C10 for `teammem extract`: the uuid of the last message each transcript file had processed,
 * kept beside the CLI's credentials. Advanced only after the server kept the run's proposals.
 */
export async function readExtractCursor(configDir: string, transcriptPath: string): Promise<string | null> {
  return (await readAll(configDir))[path.resolve(transcriptPath)] ?? null;
}

export async function saveExtractCursor(configDir: string, transcriptPath: string, cursor: string): Promise<void> {
  const cursors = { ...(await readAll(configDir)), [path.resolve(transcriptPath)]: cursor };
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const target = path.join(configDir, CURSORS_FILE);
  await writeFileAtomically(target, JSON.stringify(cursors, null, 2) + "\n");
}

async function readAll(configDir: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(configDir, CURSORS_FILE), "utf8").catch(() => null);
  const parsed = Cursors.safeParse(text === null ? {} : parseJsonOrNull(text));
  // A damaged state file means "from the start": the server's own cursor still prevents repeats.
  return parsed.success ? parsed.data : {};
}
