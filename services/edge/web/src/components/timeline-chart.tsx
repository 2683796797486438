import type { Group } from '../analytics.ts';

const COLORS: Record<string, string> = {
  block: '#d93025',
  managed_challenge: '#f29900',
  challenge: '#f29900',
  js_challenge: '#e37400',
  log: '#1a73e8',
  skip: '#9aa0a6',
  allow: '#188038',
  bypass: '#5f6368',
};
const colorOf = (action: string) => COLORS[action] ?? '#7b1fa2';

const W = 720;
const H = 180;
const PAD = { left: 36, right: 8, top: 8, bottom: 22 };

/** A bucket's time: the hour and minute, with the day when the range spans days. */
const label = (t: number, days: boolean) =>
  new Date(t)
    .toISOString()
    .slice(days ? 5 : 11, 16)
    .replace('T', ' ');

/**
 * Events per interval, stacked by action, as an SVG bar chart. Every bucket from `since` to now has a
 * bar (empty ones are zero), so gaps in traffic show as gaps.
 */
export function TimelineChart(props: { groups: Group[]; since: string; seconds: number; now: number }) {
  const step = props.seconds * 1000;
  const first = Math.floor(Date.parse(props.since) / step) * step;
  const count = Math.max(1, Math.ceil((props.now - first) / step));
  const buckets = Array.from({ length: count }, () => new Map<string, number>());
  const actions = new Set<string>();
  for (const g of props.groups) {
    const i = Math.floor((Date.parse(g.dimensions.bucket ?? '') - first) / step);
    const bucket = buckets[i];
    const action = g.dimensions.action ?? '';
    if (!bucket) continue;
    actions.add(action);
    bucket.set(action, (bucket.get(action) ?? 0) + g.count);
  }
  const totals = buckets.map((b) => [...b.values()].reduce((n, c) => n + c, 0));
  const max = Math.max(1, ...totals);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const barW = plotW / count;
  const order = [...actions].sort();
  const days = count * step > 86_400_000;
  return (
    <figure class="timeline" data-testid="timeline">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Events over time by action">
        <line x1={PAD.left} y1={PAD.top + plotH} x2={W - PAD.right} y2={PAD.top + plotH} stroke="#bbb" />
        <text x={PAD.left - 4} y={PAD.top + 8} text-anchor="end" font-size="10">
          {max}
        </text>
        <text x={PAD.left - 4} y={PAD.top + plotH} text-anchor="end" font-size="10">
          0
        </text>
        {buckets.map((b, i) => {
          let y = PAD.top + plotH;
          return order.map((action) => {
            const n = b.get(action) ?? 0;
            if (n === 0) return null;
            const h = (n / max) * plotH;
            y -= h;
            return (
              <rect
                key={`${i}-${action}`}
                x={PAD.left + i * barW + 1}
                y={y}
                width={Math.max(1, barW - 2)}
                height={h}
                fill={colorOf(action)}
                data-action={action}
                data-count={n}
              >
                <title>{`${label(first + i * step, days)} UTC: ${n} ${action}`}</title>
              </rect>
            );
          });
        })}
        <text x={PAD.left} y={H - 6} font-size="10">
          {label(first, days)} UTC
        </text>
        <text x={W - PAD.right} y={H - 6} font-size="10" text-anchor="end">
          {label(first + count * step, days)} UTC
        </text>
      </svg>
      <figcaption>
        {order.map((a) => (
          <span key={a} class="legend">
            <span class="swatch" style={{ background: colorOf(a) }} /> {a}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
