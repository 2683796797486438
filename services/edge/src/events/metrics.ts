import type { Metrics } from '@cairn/kit';
import { Counter, type Registry } from 'prom-client';

/** The recorder's counters at `/metrics`: what became of each event, and the events that needed repair. */
export interface EventCounters {
  /** `stored`, `queue_full` (dropped: the queue was full), `failed` (PostgreSQL refused it even alone). */
  events: Counter<'outcome'>;
  /** `escaped`: bytes PostgreSQL can't store were escaped; `isolated`: stored alone after its batch failed. */
  repaired: Counter<'how'>;
}

const EVENTS = 'cairn_edge_security_events_total';
const REPAIRED = 'cairn_edge_security_events_repaired_total';

function counter<L extends string>(registry: Registry | undefined, name: string, help: string, label: L) {
  const existing = registry?.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames: [label], registers: registry ? [registry] : [] });
}

/** The counters in the app's registry (created once per registry; several recorders share them). */
export function eventCounters(metrics: Metrics | undefined): EventCounters {
  const registry = metrics?.registry;
  return {
    events: counter(registry, EVENTS, 'Security events by outcome: stored, queue_full, failed', 'outcome'),
    repaired: counter(
      registry,
      REPAIRED,
      'Security events repaired before storing: escaped (NUL, invalid UTF-8), isolated (batch failed)',
      'how',
    ),
  };
}
