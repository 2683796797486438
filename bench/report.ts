// Structured figures for `npm run bench` (bench/run-all.ts): a benchmark that calls these writes one JSON
// line per figure to the file named by CAIRN_BENCH_REPORT, from which run-all draws BENCHMARKS.md's
// tables and SVG plots. Without the variable (a benchmark run by hand) they do nothing.
import { appendFileSync } from 'node:fs';
import type autocannon from 'autocannon';

/** One of our figures beside its peer, measured in the same run (the ratio is ours / the peer's). */
export interface PairedFigure {
  kind: 'pair';
  bench: string;
  name: string;
  unit: string;
  ours: number;
  peer: { name: string; value: number };
  /** true for times (µs, ms): a ratio below 1 is better; false for throughput. */
  lowerIsBetter: boolean;
}

/** A latency distribution: percentile → milliseconds. */
export interface Distribution {
  kind: 'latency';
  bench: string;
  name: string;
  percentiles: Record<string, number>;
}

export type ReportLine = PairedFigure | Distribution;

/** Writes one figure (a pair, the default kind) or one latency distribution. */
export function report(line: (Omit<PairedFigure, 'kind'> & { kind?: 'pair' }) | Distribution): void {
  const file = process.env.CAIRN_BENCH_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ kind: 'pair', ...line })}\n`);
}

/** The value at quantile `p` (0–1) of ascending `sorted` (nearest rank; `p` = 1 is the largest), if any. */
export function quantile(sorted: readonly number[], p: number): number | undefined {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** The latency percentiles autocannon measured (p1 … p99.99, max), in ms. */
export function latencyPercentiles(result: autocannon.Result): Record<string, number> {
  const l = result.latency as unknown as Record<string, number>;
  const keys = ['p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'max'];
  return Object.fromEntries(keys.filter((k) => typeof l[k] === 'number').map((k) => [k, l[k] as number]));
}
