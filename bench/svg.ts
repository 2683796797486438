// Small SVG charts for BENCHMARKS.md, drawn from a run's figures (bench/report.ts): ratios against peers as
// horizontal bars around 1×, and latency distributions as one line per series over the percentiles.
import { escapeHtml } from '../packages/kit/src/html.ts';
import type { Distribution, PairedFigure } from './report.ts';

const FONT = 'font-family="system-ui, sans-serif" font-size="12"';
const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563'];

/**
 * One bar per figure: ours / the peer's, on a log scale around 1× (green when ours is better, red when
 * worse, whichever way the unit counts).
 */
export function ratioChart(title: string, pairs: readonly PairedFigure[]): string {
  const rowHeight = 24;
  const labelWidth = 330;
  const plotWidth = 360;
  const top = 40;
  const height = top + pairs.length * rowHeight + 40;
  const ratios = pairs.map((p) => p.ours / p.peer.value);
  const extent = Math.max(2, ...ratios.map((r) => Math.max(r, 1 / r)));
  const span = Math.log(extent);
  const x = (ratio: number) => labelWidth + plotWidth / 2 + (Math.log(ratio) / span) * (plotWidth / 2);
  const rows = pairs.map((p, i) => {
    const ratio = ratios[i] as number;
    const better = p.lowerIsBetter ? ratio <= 1 : ratio >= 1;
    const y = top + i * rowHeight;
    const x0 = Math.min(x(1), x(ratio));
    const w = Math.max(1, Math.abs(x(ratio) - x(1)));
    return [
      `<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end" ${FONT}>${escapeHtml(p.name)}</text>`,
      `<rect x="${x0.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" fill="${better ? '#16a34a' : '#dc2626'}"/>`,
      `<text x="${(Math.max(x(1), x(ratio)) + 4).toFixed(1)}" y="${y + 16}" ${FONT}>${ratio.toFixed(2)}×</text>`,
    ].join('');
  });
  const ticks = [1 / extent, 1, extent].map(
    (t) =>
      `<text x="${x(t).toFixed(1)}" y="${height - 12}" text-anchor="middle" ${FONT}>${t < 1 ? `1/${(1 / t).toFixed(1)}` : t.toFixed(1)}×</text>`,
  );
  return svg(title, labelWidth + plotWidth + 80, height, [
    `<text x="10" y="20" ${FONT} font-weight="bold">${escapeHtml(title)}</text>`,
    `<line x1="${x(1)}" y1="${top - 4}" x2="${x(1)}" y2="${height - 28}" stroke="#111" stroke-dasharray="3 3"/>`,
    ...rows,
    ...ticks,
  ]);
}

const PERCENTILE_LABELS: Record<string, string> = {
  p1: '1',
  p2_5: '2.5',
  p10: '10',
  p25: '25',
  p50: '50',
  p75: '75',
  p90: '90',
  p97_5: '97.5',
  p99: '99',
  p99_9: '99.9',
  p99_99: '99.99',
  max: 'max',
};

/** Latency (ms, log scale) at each percentile, one line per series. */
export function latencyChart(title: string, series: readonly Distribution[]): string {
  const keys = Object.keys(PERCENTILE_LABELS).filter((k) => series.some((s) => k in s.percentiles));
  const left = 60;
  const top = 40;
  const plotWidth = 520;
  const plotHeight = 240;
  const legendWidth = 200;
  const values = series.flatMap((s) => Object.values(s.percentiles)).filter((v) => v > 0);
  const lo = Math.max(0.01, Math.min(...values));
  const hi = Math.max(lo * 10, ...values);
  const x = (i: number) => left + (i / Math.max(1, keys.length - 1)) * plotWidth;
  const y = (ms: number) =>
    top +
    plotHeight -
    ((Math.log(Math.max(ms, lo)) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * plotHeight;
  const lines = series.map((s, n) => {
    const colour = COLOURS[n % COLOURS.length] as string;
    const points = keys
      .map((k, i) =>
        k in s.percentiles ? `${x(i).toFixed(1)},${y(s.percentiles[k] as number).toFixed(1)}` : '',
      )
      .filter(Boolean)
      .join(' ');
    return [
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points}"/>`,
      `<rect x="${left + plotWidth + 20}" y="${top + n * 20}" width="12" height="12" fill="${colour}"/>`,
      `<text x="${left + plotWidth + 38}" y="${top + n * 20 + 11}" ${FONT}>${escapeHtml(s.name)}</text>`,
    ].join('');
  });
  const yTicks: string[] = [];
  for (let t = 10 ** Math.floor(Math.log10(lo)); t <= hi * 1.0001; t *= 10) {
    if (t < lo) continue;
    yTicks.push(
      `<line x1="${left}" y1="${y(t).toFixed(1)}" x2="${left + plotWidth}" y2="${y(t).toFixed(1)}" stroke="#ddd"/>` +
        `<text x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" ${FONT}>${t} ms</text>`,
    );
  }
  const xTicks = keys.map(
    (k, i) =>
      `<text x="${x(i).toFixed(1)}" y="${top + plotHeight + 18}" text-anchor="middle" ${FONT}>${PERCENTILE_LABELS[k]}</text>`,
  );
  return svg(title, left + plotWidth + legendWidth, top + plotHeight + 50, [
    `<text x="10" y="20" ${FONT} font-weight="bold">${escapeHtml(title)}</text>`,
    ...yTicks,
    `<rect x="${left}" y="${top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#999"/>`,
    ...lines,
    ...xTicks,
    `<text x="${left + plotWidth / 2}" y="${top + plotHeight + 38}" text-anchor="middle" ${FONT}>percentile</text>`,
  ]);
}

/** An SVG document; its <title> (the chart's heading) is what screen readers and tooltips show. */
function svg(title: string, width: number, height: number, body: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${escapeHtml(title)}</title><rect width="100%" height="100%" fill="#fff"/>${body.join('')}</svg>\n`;
}
