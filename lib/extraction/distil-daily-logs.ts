import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { NotRegularFileError, readRegularFile } from "../memdir/read-regular-file";
import { redactSecrets } from "../secrets/redact-secrets";
import type { ExtractionCandidate } from "./candidate-types";

const LOG_NAME = /^(\d{4})-(\d{2})-(\d{2})\.md$/;
const MAX_LOG_BYTES = 64 * 1024;
const MAX_LOGS = 31;

export type DailyLog = { file: string; date: string; text: string };

/** The logs read, and the log names that are not regular files (never opened), with the reason. */
export type DailyLogListing = { logs: DailyLog[]; skipped: { file: string; reason: string }[] };

/** T4: the KAIROS daily logs `logs/YYYY/MM/YYYY-MM-DD.md` changed since `since` (newest 31). */
export async function listDailyLogs(memoryDir: string, since: Date | null): Promise<DailyLogListing> {
  const logsDir = path.join(memoryDir, "logs");
  const found: DailyLog[] = [];
  const skipped: DailyLogListing["skipped"] = [];
  for (const year of await listNames(logsDir, /^\d{4}$/)) {
    for (const month of await listNames(path.join(logsDir, year), /^\d{2}$/)) {
      for (const name of await listNames(path.join(logsDir, year, month), LOG_NAME)) {
        const file = path.join(logsDir, year, month, name);
        const relative = path.relative(memoryDir, file);
        // lstat, and only a regular file is read: a named pipe would block the run for good, and
        // a link could lead out of the memory directory.
        const info = await lstat(file);
        if (!info.isFile()) {
          skipped.push({ file: relative, reason: new NotRegularFileError(info).message });
          continue;
        }
        if (since && info.mtime <= since) continue;
        if (info.size > MAX_LOG_BYTES) continue;
        const { bytes } = await readRegularFile(file, MAX_LOG_BYTES);
        found.push({ file: relative, date: name.slice(0, 10), text: bytes.toString("utf8") });
      }
    }
  }
  return { logs: found.sort((left, right) => left.date.localeCompare(right.date)).slice(-MAX_LOGS), skipped };
}

/**
 * T4 without a model: one topic candidate per `## heading` across the logs, its entries gathered
 * in date order (entries outside a heading go under "notes"). An entry is a `- ` bullet or a
 * paragraph of prose: KAIROS logs are written both ways. A lead or the member decides what is
 * worth keeping; these are candidates, not memories.
 */
export function distilDailyLogs(logs: DailyLog[]): ExtractionCandidate[] {
  const topics = new Map<string, { entries: string[]; evidence: ExtractionCandidate["evidence"] }>();
  for (const log of logs) {
    for (const { topic, text: entry } of entriesOf(log.text)) {
      const item = topics.get(topic) ?? { entries: [], evidence: [] };
      const text = redactSecrets(entry).text;
      item.entries.push(`- ${text} (${log.date})`);
      if (item.evidence.length < 4) item.evidence.push({ uuid: `${log.file}`, role: "daily-log", excerpt: text.slice(0, 600) });
      topics.set(topic, item);
    }
  }
  return [...topics].map(([topic, item]) => ({
    file: `project_${slug(topic)}.md`,
    type: "project",
    name: topic,
    description: `What the daily logs recorded about ${topic.toLowerCase()}`,
    body: `${item.entries.join("\n")}\n\n**Why:** distilled from the daily logs.\n**How to apply:** check an entry is still true before relying on it.\n`,
    scope: "team",
    evidence: item.evidence,
    confidence: "low",
  }));
}

/**
 * The entries of one log with the heading they sit under: each list item, and each paragraph of
 * prose, with the lines that continue it (no blank line between) joined. A `# title`, a
 * frontmatter block and fenced code are not entries.
 */
function entriesOf(text: string): { topic: string; text: string }[] {
  const entries: { topic: string; text: string }[] = [];
  let topic = "notes";
  let open: { topic: string; text: string } | null = null;
  let isInFence = false;
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const bodyStart = lines[0]?.trim() === "---" ? lines.indexOf("---", 1) + 1 : 0;
  for (const line of lines.slice(bodyStart)) {
    if (/^\s*(?:```|~~~)/.test(line)) isInFence = !isInFence;
    const heading = /^(#{1,6})\s+(.+?)(?:\s+#+)?\s*$/.exec(line);
    if (heading && !isInFence && heading[1]!.length >= 2 && heading[1]!.length <= 3) topic = heading[2]!.trim();
    const item = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.+)$/.exec(line);
    const words = (item ? item[1]! : line).trim();
    if (isInFence || heading || !words || /^(?:```|~~~)/.test(words) || /^(?:[-*_]\s*){3,}$/.test(words)) {
      open = null;
      continue;
    }
    if (open && !item) {
      open.text = `${open.text} ${words}`;
      continue;
    }
    open = { topic, text: words };
    entries.push(open);
  }
  return entries;
}

async function listNames(dir: string, pattern: RegExp): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((name) => pattern.test(name)).sort();
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "").slice(0, 60) || "notes";
}
