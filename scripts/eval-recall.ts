/**
 * Quality of the local recall ranker on the probe's three labelled sets (tests/fixtures/recall/
 * probe-*.ts): precision, recall and over-selection per set. Payments and frontend are the tuning
 * sets; pipeline is held out (never looked at while tuning).
 * Run: npx tsx scripts/eval-recall.ts [--verbose]
 */
import { evaluateProbeSet } from "../tests/fixtures/recall/evaluate-probe-sets";
import type { ProbeSetName } from "../tests/fixtures/recall/probe-memory-sets";

const SETS: { set: ProbeSetName; role: string }[] = [
  { set: "payments", role: "tuning" },
  { set: "frontend", role: "tuning" },
  { set: "pipeline", role: "held out" },
];
const isVerbose = process.argv.includes("--verbose");

const rows = SETS.map(({ set, role }) => {
  const { scores, outcomes } = evaluateProbeSet(set);
  if (isVerbose) {
    for (const outcome of outcomes) {
      const flags = [outcome.missed.length > 0 ? `MISS(${outcome.missed.join(",")})` : "", outcome.irrelevant.length > 0 ? `IRR${outcome.irrelevant.length}` : "", outcome.supersededAbove.length > 0 ? "SUPERSEDED-ABOVE" : ""];
      console.log(`[${set}/${outcome.prompt.cat}] ${JSON.stringify(outcome.prompt.q.slice(0, 70))} -> ${outcome.files.length} ${flags.filter(Boolean).join(" ")}`);
      for (const [position, file] of outcome.files.entries()) {
        const mark = outcome.prompt.must?.includes(file) ? "+" : outcome.prompt.ok?.includes(file) ? "~" : "-";
        console.log(`     ${mark} ${file}  (${outcome.matched[position]?.join(", ") ?? ""})`);
      }
    }
  }
  return { set: `${set} (${role})`, ...scores, precision: scores.precision.toFixed(2), recall: scores.recall.toFixed(2) };
});
console.table(rows);
