import type { Clock, Db, Logger, Metrics } from '@cairn/kit';
import type { EdgeRequest } from '../engine/request.ts';
import type { RuleEvent } from '../engine/verdict.ts';
import { type EventCounters, eventCounters } from './metrics.ts';
import { storableEvent } from './storable.ts';
import { insertEvents, pruneEvents, type SecurityEventRow } from './store.ts';

export interface RecorderOptions {
  /** Share of `log`, `skip`, `allow` and `bypass` events kept, 0–1 (blocks and challenges: all). */
  logSampleRate: number;
  retentionDays: number;
  maxRows: number;
  /** Events waiting for the database at most; past it new ones are dropped (and counted). */
  maxQueue: number;
  flushMs: number;
  random?: () => number;
}

const ALWAYS = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Records security events off the request path: queued, written in batches every `flushMs`, pruned to
 * the retention bound every hour. The proxy never waits for the database. Request content can't lose
 * events: every text field is made storable first (`storable.ts`), and when PostgreSQL still refuses a
 * batch for its data, each row is written alone, so one bad row costs only itself.
 */
export class EventRecorder {
  private queue: SecurityEventRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;
  private readonly counters: EventCounters;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger; metrics?: Metrics },
    readonly options: RecorderOptions,
  ) {
    this.counters = eventCounters(deps.metrics);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
    this.pruneTimer ??= setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    void this.prune();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.timer = undefined;
    this.pruneTimer = undefined;
    await this.flush();
  }

  record(
    zoneId: string,
    request: EdgeRequest,
    path: string,
    query: string,
    events: readonly RuleEvent[],
  ): void {
    const random = this.options.random ?? Math.random;
    let userAgent = '';
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
      if ((request.rawHeaders[i] as string).toLowerCase() === 'user-agent') {
        userAgent = request.rawHeaders[i + 1] as string;
        break;
      }
    }
    const occurredAt = new Date(request.timestamp);
    for (const e of events) {
      if (!ALWAYS.has(e.action) && random() >= this.options.logSampleRate) continue;
      if (this.queue.length >= this.options.maxQueue) {
        this.dropped++;
        this.counters.events.inc({ outcome: 'queue_full' });
        continue;
      }
      this.queue.push({
        zoneId,
        occurredAt,
        rayId: request.rayId,
        action: e.action,
        source: e.source,
        waf: e.waf,
        phase: e.phase,
        rulesetId: e.rulesetId,
        ruleId: e.ruleId,
        description: e.description,
        clientIp: request.ip,
        method: request.method,
        host: request.host,
        path: path.slice(0, 2048),
        query: query.slice(0, 2048),
        userAgent: userAgent.slice(0, 512),
        httpProtocol: `HTTP/${request.httpVersion}`,
        matchedData: e.matchedData,
      });
    }
  }

  /** Writes what is queued (one batch at a time; resolves when this call's events are stored). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.queue.length > 0) {
        await this.write(this.queue.splice(0, 500).map((e) => this.storable(e)));
      }
    });
    return this.flushing;
  }

  private storable(e: SecurityEventRow): SecurityEventRow {
    const { event, escaped } = storableEvent(e);
    if (escaped > 0) this.counters.repaired.inc({ how: 'escaped' });
    return event;
  }

  private async write(batch: SecurityEventRow[]): Promise<void> {
    try {
      await insertEvents(this.deps.db, batch);
      this.stored(batch.length);
      return;
    } catch (error) {
      if (!isDataError(error) || batch.length === 1) return this.failed(batch, error);
    }
    for (const row of batch) {
      try {
        await insertEvents(this.deps.db, [row]);
        this.stored(1);
        this.counters.repaired.inc({ how: 'isolated' });
      } catch (error) {
        this.failed([row], error);
      }
    }
  }

  private stored(n: number): void {
    this.written += n;
    this.counters.events.inc({ outcome: 'stored' }, n);
  }

  private failed(rows: SecurityEventRow[], error: unknown): void {
    this.dropped += rows.length;
    this.counters.events.inc({ outcome: 'failed' }, rows.length);
    const rayIds = rows.slice(0, 10).map((r) => r.rayId);
    this.deps.log.warn({ err: error, events: rows.length, rayIds }, 'security events could not be stored');
  }

  async prune(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - this.options.retentionDays * 86_400_000);
    try {
      await pruneEvents(this.deps.db, before, this.options.maxRows);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'security events could not be pruned');
    }
  }
}

/**
 * PostgreSQL refused the data (SQLSTATE class 22 data exception, 23 integrity violation), not the
 * connection: retrying row by row can save the rest. Anything else fails the batch at once.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}
