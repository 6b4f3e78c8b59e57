/**
 * `npm run bench:secrets`: what secret scanning costs (issue 4). Our synchronous `scanSecrets`
 * beside the stock secretlint recommended preset, on the same generated input in the same run:
 * 10,000 typical ~1 KB notes, one 5 MB file, and the per-note cost of a 2 KB note. It prints
 * numbers only; nothing here asserts a timing.
 */
import { creator as recommendedPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { scanSecrets } from "../lib/secrets/scan-secrets";
import { runSecretlint } from "../lib/secrets/run-secretlint";

const PRESET_CONFIG: SecretLintCoreConfig = { rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }] };
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SENTENCES = [
  "The deploy pipeline waits for the migration job before switching traffic.",
  "User prefers short answers and reads the diff before merging.",
  "**Why:** the staging database was reset twice during the March incident.",
  "**How to apply:** run `npm run db:migrate` before `npm start` on a fresh clone.",
  "Tokens for the recall model are capped at 4096 per request; see the settings page.",
  "The password policy for the admin console requires 12 characters and a passkey.",
  "Fixed in commit 3f2a9c1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90 after the review.",
  "const token = await getToken(); // refreshed by the middleware, never stored",
  "Ask Ann before changing the on-call rotation; she owns the pager schedule.",
  "The API key id is 0f8fad5b-d9cb-469f-a165-70867728950e (the key lives in Vault).",
];

/** mulberry32, so every run measures the same input. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

// One note in twenty carries a secret, as a note pasted in a hurry would.
function generateNote(random: () => number, index: number, targetBytes: number): string {
  const pick = (items: string[]) => items[Math.floor(random() * items.length)] ?? "";
  let body = `---\nname: Note ${index}\ndescription: ${pick(SENTENCES)}\ntype: project\n---\n`;
  while (body.length < targetBytes) body += `${pick(SENTENCES)}\n`;
  if (index % 20 === 0) {
    const token = Array.from({ length: 36 }, () => pick(ALNUM.split(""))).join("");
    body += `GITHUB_TOKEN=ghp_${token}\n`;
  }
  return body;
}

function generateNotes(count: number, targetBytes: number, seed: number): string[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, (_, index) => generateNote(random, index, targetBytes));
}

// Through runSecretlint so the preset is not billed for its profiler's leak (see that file).
async function lintWithPreset(text: string): Promise<number> {
  return (await runSecretlint(text, PRESET_CONFIG)).length;
}

async function time(run: () => unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

type Row = { input: string; scanner: string; ms: number; bytes: number; items: number };

function printTable(rows: Row[], baselineFor: (row: Row) => Row | undefined): void {
  console.log("| input | scanner | total ms | MB/s | µs per item | speed vs preset (>1 = faster) |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const row of rows) {
    const baseline = baselineFor(row);
    const ratio = baseline ? `${(baseline.ms / row.ms).toFixed(2)}×` : "—";
    const megabytesPerSecond = row.bytes / 1e6 / (row.ms / 1000);
    console.log(`| ${row.input} | ${row.scanner} | ${row.ms.toFixed(1)} | ${megabytesPerSecond.toFixed(1)} | ${((row.ms * 1000) / row.items).toFixed(1)} | ${ratio} |`);
  }
}

async function main(): Promise<void> {
  const notes = generateNotes(10_000, 1024, 1);
  const noteBytes = notes.reduce((sum, note) => sum + note.length, 0);
  const bigFile = generateNotes(5200, 1000, 2).join("\n").slice(0, 5 * 1024 * 1024);
  const twoKbNotes = generateNotes(2000, 2048, 3);

  // Warm up both so the JIT and the preset's lazy setup are not billed to the first run.
  for (const note of notes.slice(0, 300)) {
    scanSecrets(note);
    await lintWithPreset(note);
  }

  const rows: Row[] = [];
  const add = (input: string, scanner: string, ms: number, bytes: number, items: number) => rows.push({ input, scanner, ms, bytes, items });
  add("10,000 notes ~1 KB", "scanSecrets (sync)", await time(() => notes.forEach((note) => scanSecrets(note))), noteBytes, notes.length);
  add("10,000 notes ~1 KB", "secretlint preset", await time(async () => { for (const note of notes) await lintWithPreset(note); }), noteBytes, notes.length);
  add("one 5 MB file", "scanSecrets (sync)", await time(() => scanSecrets(bigFile)), bigFile.length, 1);
  add("one 5 MB file", "secretlint preset", await time(() => lintWithPreset(bigFile)), bigFile.length, 1);

  const twoKbBytes = twoKbNotes.reduce((sum, note) => sum + note.length, 0);
  const perNote = twoKbNotes.map((note) => {
    const started = performance.now();
    scanSecrets(note);
    return performance.now() - started;
  });
  add("2,000 notes 2 KB", "scanSecrets (sync)", perNote.reduce((sum, ms) => sum + ms, 0), twoKbBytes, twoKbNotes.length);
  add("2,000 notes 2 KB", "secretlint preset", await time(async () => { for (const note of twoKbNotes) await lintWithPreset(note); }), twoKbBytes, twoKbNotes.length);

  console.log(`node ${process.version}; notes carry one secret in twenty; "secretlint preset" includes runSecretlint's profiler cleanup\n`);
  printTable(rows, (row) => (row.scanner === "secretlint preset" ? undefined : rows.find((other) => other.input === row.input && other.scanner === "secretlint preset")));
  const sorted = [...perNote].sort((a, b) => a - b);
  const percentile = (share: number) => (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0) * 1000;
  console.log(`\nscanSecrets per 2 KB note: median ${percentile(0.5).toFixed(1)} µs, p99 ${percentile(0.99).toFixed(1)} µs, max ${percentile(1).toFixed(1)} µs`);
}

await main();
