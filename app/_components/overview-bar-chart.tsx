"use client";

import { Bar, BarChart, CartesianGrid, LabelList, Legend, XAxis, YAxis } from "recharts";
import styles from "./overview.module.css";
import { useHydrated } from "./use-hydrated";

export type ChartSeries = { key: string; label: string };
export type ChartRow = { category: string } & Record<string, string | number>;

type Props = {
  /** Names the chart for assistive technology; the figure's caption shows it too. */
  title: string;
  rows: ChartRow[];
  series: ChartSeries[];
  /** Stacks the series in one bar per category (else bars side by side). */
  isStacked?: boolean;
  /** Bars grow to the right, categories down the side: for long category names. */
  isHorizontal?: boolean;
  height?: number;
  testId?: string;
};

// Each series differs by pattern as well as by colour, and every bar carries its number, so the
// chart reads in greyscale and for colour-blind readers; the table below it holds the same data.
const SWATCHES = [
  { color: "#4c78a8", pattern: null },
  { color: "#f58518", pattern: "stripes" },
  { color: "#54a24b", pattern: "dots" },
  { color: "#b279a2", pattern: "cross" },
] as const;

function fillOf(index: number, chartId: string): string {
  const swatch = SWATCHES[index % SWATCHES.length]!;
  return swatch.pattern ? `url(#${chartId}-${swatch.pattern})` : swatch.color;
}

/**
 * A bar chart for the Overview (recharts), with a value on every non-zero bar, patterned series,
 * and a data table for screen readers and anyone who prefers numbers. Before hydration (and
 * without JavaScript) the table alone is shown, so the server's HTML already carries the data.
 */
export function OverviewBarChart({ title, rows, series, isStacked = false, isHorizontal = false, height = 220, testId }: Props) {
  const isHydrated = useHydrated();
  const chartId = `chart-${(testId ?? title).replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
  const summary = `${title}: ${rows.map((row) => `${row.category} ${series.map((item) => `${series.length > 1 ? `${item.label} ` : ""}${row[item.key] ?? 0}`).join(", ")}`).join("; ")}.`;
  return (
    <figure className={styles.chart} data-testid={testId}>
      <figcaption>{title}</figcaption>
      {isHydrated && (
        <div role="img" aria-label={summary} style={{ width: "100%", height }}>
          <BarChart responsive data={rows} layout={isHorizontal ? "vertical" : "horizontal"} style={{ width: "100%", height }} margin={{ top: 16, right: 24, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <defs>
              <pattern id={`${chartId}-stripes`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="6" height="6" fill="#fde3c8" />
                <line x1="0" y1="0" x2="0" y2="6" stroke={SWATCHES[1].color} strokeWidth="3" />
              </pattern>
              <pattern id={`${chartId}-dots`} width="6" height="6" patternUnits="userSpaceOnUse">
                <rect width="6" height="6" fill="#d9efd6" />
                <circle cx="3" cy="3" r="1.6" fill={SWATCHES[2].color} />
              </pattern>
              <pattern id={`${chartId}-cross`} width="6" height="6" patternUnits="userSpaceOnUse">
                <rect width="6" height="6" fill="#efdcea" />
                <path d="M0 0L6 6M6 0L0 6" stroke={SWATCHES[3].color} strokeWidth="1.2" />
              </pattern>
            </defs>
            <CartesianGrid strokeDasharray="3 3" vertical={isHorizontal} horizontal={!isHorizontal} />
            {isHorizontal ? (
              <>
                <XAxis type="number" allowDecimals={false} />
                <YAxis type="category" dataKey="category" width={150} tick={{ fontSize: 12 }} />
              </>
            ) : (
              <>
                <XAxis dataKey="category" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
                <YAxis allowDecimals={false} width={36} />
              </>
            )}
            {series.length > 1 && <Legend />}
            {series.map((item, index) => (
              <Bar key={item.key} dataKey={item.key} name={item.label} stackId={isStacked ? "stack" : undefined} fill={fillOf(index, chartId)} stroke={SWATCHES[index % SWATCHES.length]!.color} isAnimationActive={false}>
                <LabelList dataKey={item.key} position={isStacked ? "center" : isHorizontal ? "right" : "top"} fill="#111" fontSize={12} formatter={(value: unknown) => (Number(value) > 0 ? String(value) : "")} />
              </Bar>
            ))}
          </BarChart>
        </div>
      )}
      <details open={!isHydrated}>
        <summary>{isHydrated ? "Show as a table" : "Data"}</summary>
        <table>
          <thead>
            <tr><th scope="col"></th>{series.map((item) => <th key={item.key} scope="col">{item.label}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.category}><th scope="row">{row.category}</th>{series.map((item) => <td key={item.key}>{row[item.key] ?? 0}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
