import type { Group } from '../analytics.ts';

/** A top-N breakdown: the value, its count as a bar, and a button that filters on it. */
export function TopList(props: {
  title: string;
  testid: string;
  groups: Group[];
  label: (g: Group) => string;
  onPick: (g: Group) => void;
}) {
  const max = Math.max(1, ...props.groups.map((g) => g.count));
  return (
    <section class="card top-list" data-testid={props.testid}>
      <h3>{props.title}</h3>
      {props.groups.length === 0 && <p class="muted">Nothing in this range.</p>}
      <ol>
        {props.groups.map((g) => (
          <li key={props.label(g)}>
            <button type="button" class="link" title="Filter on this value" onClick={() => props.onPick(g)}>
              {props.label(g) || '(empty)'}
            </button>
            <span class="bar" style={{ width: `${(g.count / max) * 100}%` }} />
            <span class="count">{g.count}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
