import type { Clock, Db, Logger } from '@cairn/kit';
import type { EdgeRequest } from '../engine/request.ts';
import type { RuleEvent } from '../engine/verdict.ts';
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
 * the retention bound every hour. The proxy never waits for the database.
 */
export class EventRecorder {
  private queue: SecurityEventRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    readonly options: RecorderOptions,
  ) {}

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
        const batch = this.queue.splice(0, 500);
        try {
          await insertEvents(this.deps.db, batch);
          this.written += batch.length;
        } catch (error) {
          this.dropped += batch.length;
          this.deps.log.warn({ err: error }, 'security events could not be stored');
        }
      }
    });
    return this.flushing;
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
