import type { Clock, Db, Logger, Metrics } from '@cairn/kit';
import type { EdgeRequest } from '../engine/request.ts';
import type { RuleEvent } from '../engine/verdict.ts';
import { type GeoInfo, geoDatabase } from '../geo/database.ts';
import { type EventCounters, eventCounters } from './metrics.ts';
import { storableEvent } from './storable.ts';
import {
  addEventCounts,
  type EventCount,
  insertEvents,
  pruneEvents,
  runJobOnce,
  type SecurityEventRow,
} from './store.ts';

export interface RecorderOptions {
  /** Share of `log`, `skip`, `allow` and `bypass` events kept, 0–1 (blocks and challenges: all). */
  logSampleRate: number;
  /**
   * Requests with events stored in full per zone and second (in this process) before sampling starts;
   * past it, the share kept halves after each further `sampleAfter` requests kept (see `Sampler`).
   */
  sampleAfter: number;
  retentionDays: number;
  maxRows: number;
  /** How often the retention job runs (once across every process sharing the database). */
  pruneEveryMs: number;
  /** Events waiting for the database at most; past it new ones are dropped (and counted). */
  maxQueue: number;
  flushMs: number;
  random?: () => number;
}

const ALWAYS = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
const RETENTION_JOB = 'edge_security_events_retention';
/** Rows per INSERT (one array per column, so the statement has the same parameters at any size). */
const BATCH = 500;
/** The sampling interval doubles at most this many times (1 kept in 2^20 at worst). */
const MAX_TIER = 20;

/** One zone's sampling window: the current second, requests kept in it, requests since the last kept. */
interface Window {
  second: number;
  kept: number;
  sinceKept: number;
}

/**
 * Which requests' events are stored as rows, per zone and second: the first `after` requests are all
 * kept; then 1 in 2 until `after` more are kept, then 1 in 4, 1 in 8, … So a zone stores about
 * `after × (1 + log2(rate / after))` rows a second whatever its rate, and each kept row carries the
 * interval it was kept at (the requests it stands for). Systematic, not random: the same traffic gives
 * the same sample.
 */
class Sampler {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly after: number) {}

  /** The request's sampling interval if its events are kept, 0 if not. */
  keep(zoneId: string, timestamp: number): number {
    const second = Math.floor(timestamp / 1000);
    let w = this.windows.get(zoneId);
    if (!w) {
      w = { second, kept: 0, sinceKept: 0 };
      this.windows.set(zoneId, w);
    } else if (w.second !== second) {
      w.second = second;
      w.kept = 0;
      w.sinceKept = 0;
    }
    const interval = 2 ** Math.min(MAX_TIER, Math.floor(w.kept / this.after));
    if (++w.sinceKept < interval) return 0;
    w.sinceKept = 0;
    w.kept++;
    return interval;
  }

  /** Forgets zones idle since before `second` (called with each flush). */
  forget(second: number): void {
    for (const [zone, w] of this.windows) if (w.second < second) this.windows.delete(zone);
  }
}

/**
 * Records security events off the request path. Every event is counted exactly, per zone, minute,
 * action and rule (summed in memory, added to `edge_security_event_counts` with each flush); the events
 * themselves are stored as rows for a sample of the requests once a zone is busy (`Sampler`), queued and
 * written in batches every `flushMs`. The proxy never waits for the database. Retention runs as a job,
 * once every `pruneEveryMs` across all processes. Request content can't lose events: every text field is
 * made storable first (`storable.ts`), and when PostgreSQL still refuses a batch for its data, each row
 * is written alone, so one bad row costs only itself.
 */
export class EventRecorder {
  private queue: SecurityEventRow[] = [];
  /**
   * Event counts by zone, then rule id (the same managed rule id fires in every zone), then the rest of
   * the key in a short list (one zone's rule rarely has more than one minute and action in a flush
   * interval). No key string is built per event: two lookups of strings whose hashes V8 keeps, and a
   * comparison of the other fields, cost less than joining and hashing them.
   */
  private counts = new Map<string, Map<string, EventCount[]>>();
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly sampler: Sampler;
  /** Events: dropped (queue full or refused), stored as rows, counted, not stored by sampling. */
  dropped = 0;
  written = 0;
  counted = 0;
  sampledOut = 0;
  private sampledOutReported = 0;
  private readonly counters: EventCounters;

  /** The client's country and AS, looked up when events are stored (off the request path). */
  private readonly geo: (address: string) => GeoInfo | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: Logger;
      metrics?: Metrics;
      /** IP geolocation; by default the process's IP databases (the ones ip.src.country reads). */
      geo?: (address: string) => GeoInfo | undefined;
    },
    readonly options: RecorderOptions,
  ) {
    this.geo = deps.geo ?? ((address) => geoDatabase().lookup(address));
    this.counters = eventCounters(deps.metrics);
    this.sampler = new Sampler(options.sampleAfter);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
    // Each process looks at least once a minute whether the job is due; the first to find it due runs it.
    this.pruneTimer ??= setInterval(() => void this.prune(), Math.min(this.options.pruneEveryMs, 60_000));
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
    const minute = Math.floor(request.timestamp / 60_000) * 60_000;
    for (const e of events) this.count(zoneId, minute, e);
    const interval = this.sampler.keep(zoneId, request.timestamp);
    if (interval === 0) {
      this.sampledOut += events.length;
      return;
    }
    const random = this.options.random ?? Math.random;
    let userAgent: string | undefined;
    let referer: string | undefined;
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
      const name = (request.rawHeaders[i] as string).toLowerCase();
      if (name === 'user-agent') userAgent ??= request.rawHeaders[i + 1] as string;
      else if (name === 'referer') referer ??= request.rawHeaders[i + 1] as string;
      if (userAgent !== undefined && referer !== undefined) break;
    }
    const refererHost = hostOf(referer);
    const occurredAt = new Date(request.timestamp);
    for (const e of events) {
      if (!ALWAYS.has(e.action) && random() >= this.options.logSampleRate) {
        this.sampledOut++;
        continue;
      }
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
        userAgent: (userAgent ?? '').slice(0, 512),
        refererHost,
        httpProtocol: `HTTP/${request.httpVersion}`,
        matchedData: e.matchedData,
        sampleInterval: ALWAYS.has(e.action) ? interval : interval / this.options.logSampleRate,
      });
    }
  }

  /** One more of this event in its zone's minute (a count per zone, minute, action and rule). */
  private count(zoneId: string, minute: number, e: RuleEvent): void {
    this.counted++;
    this.addCount(
      zoneId,
      minute,
      e.action,
      e.source,
      e.waf ?? '',
      e.phase ?? '',
      e.rulesetId ?? '',
      e.ruleId,
      1,
    );
  }

  private addCount(
    zoneId: string,
    minute: number,
    action: string,
    source: string,
    waf: string,
    phase: string,
    rulesetId: string,
    ruleId: string,
    n: number,
  ): void {
    let rules = this.counts.get(zoneId);
    if (!rules) {
      rules = new Map();
      this.counts.set(zoneId, rules);
    }
    let list = rules.get(ruleId);
    if (!list) {
      list = [];
      rules.set(ruleId, list);
    }
    for (const c of list) {
      // the list is this zone's and this rule id's already
      if (
        c.minute.getTime() === minute &&
        c.action === action &&
        c.source === source &&
        c.waf === waf &&
        c.phase === phase &&
        c.rulesetId === rulesetId
      ) {
        c.count += n;
        return;
      }
    }
    list.push({ zoneId, minute: new Date(minute), action, source, waf, phase, rulesetId, ruleId, count: n });
  }

  /**
   * Writes the counts and what is queued (one batch at a time; resolves when this call's events are
   * stored). Counts the database did not take are kept and added again with the next flush.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      this.sampler.forget(Math.floor(this.deps.clock.now().getTime() / 1000) - 1);
      if (this.sampledOut > this.sampledOutReported) {
        this.counters.events.inc({ outcome: 'sampled_out' }, this.sampledOut - this.sampledOutReported);
        this.sampledOutReported = this.sampledOut;
      }
      await this.writeCounts();
      while (this.queue.length > 0) {
        await this.write(this.queue.splice(0, BATCH).map((e) => this.storable(e)));
      }
    });
    return this.flushing;
  }

  private async writeCounts(): Promise<void> {
    if (this.counts.size === 0) return;
    const counts = [...this.counts.values()].flatMap((rules) => [...rules.values()].flat());
    this.counts = new Map();
    for (let i = 0; i < counts.length; i += BATCH) {
      const batch = counts.slice(i, i + BATCH);
      try {
        await addEventCounts(this.deps.db, batch);
      } catch (error) {
        // Kept for the next flush (merged with what has been counted since).
        for (const c of counts.slice(i))
          this.addCount(
            c.zoneId,
            c.minute.getTime(),
            c.action,
            c.source,
            c.waf,
            c.phase,
            c.rulesetId,
            c.ruleId,
            c.count,
          );
        this.deps.log.warn(
          { err: error, counts: counts.length - i },
          'security event counts could not be stored; retrying with the next flush',
        );
        return;
      }
    }
  }

  private storable(e: SecurityEventRow): SecurityEventRow {
    const geo = this.geoOf(e.clientIp);
    const { event, escaped } = storableEvent({
      ...e,
      clientCountry: geo?.country ?? '',
      clientAsn: geo?.asnum === undefined ? '' : String(geo.asnum),
      clientAsnDescription: geo?.asName ?? '',
    });
    if (escaped > 0) this.counters.repaired.inc({ how: 'escaped' });
    return event;
  }

  /** A lookup that fails (a database that cannot load) leaves the fields empty: events still get stored. */
  private geoOf(address: string): GeoInfo | undefined {
    try {
      return this.geo(address);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'IP geolocation failed; events stored without country and AS');
      return undefined;
    }
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

  /**
   * The retention job: deletes events (and counts) older than `retentionDays`, and events beyond the
   * newest `maxRows`, if no process ran it in the last `pruneEveryMs`. Returns the rows deleted, or
   * undefined when it was not due (or another process is running it).
   */
  async prune(): Promise<number | undefined> {
    const now = this.deps.clock.now();
    const before = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    try {
      return await runJobOnce(this.deps.db, RETENTION_JOB, now, this.options.pruneEveryMs, (tx) =>
        pruneEvents(tx, before, this.options.maxRows),
      );
    } catch (error) {
      this.deps.log.warn({ err: error }, 'security events could not be pruned');
      return undefined;
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

/** The host of a Referer URL, lowercase, without port ('' when there is none or it does not parse). */
function hostOf(referer: string | undefined): string {
  if (!referer) return '';
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)/i.exec(referer);
  return (m?.[1] ?? '').toLowerCase().slice(0, 255);
}
