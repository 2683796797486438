import type { Db, Logger } from '@cairn/kit';
import { linearEngine } from '@cairn/seclang';
import { findZone, findZoneByName } from '../api/zones/store.ts';
import type { GeoInfo } from '../geo/database.ts';
import type { Catalogue } from '../managed/catalogue.ts';
import { CrsEngines } from './crs-engines.ts';
import { CrsInPool } from './crs-run.ts';
import { engineScheme } from './expressions.ts';
import { compileZonePlan, evaluatePlan, type ZonePlan } from './plan.ts';
import { CrsPool } from './pool/crs-pool.ts';
import { type EdgeRequest, RequestView } from './request.ts';
import type { Verdict } from './verdict.ts';

/** Channel the database triggers of migration 0003 notify, with a zone id, on every config change. */
export const CONFIG_CHANNEL = 'cairn_edge_config';

export interface EngineOptions {
  crsDir: string;
  /** Body bytes inspected at most. */
  bodyLimit: number;
  /** How long a compiled plan is trusted without a notification (backstop for a lost one). */
  planTtlMs: number;
  maxCrsEngines: number;
  timeBudgetMs: number;
  /** CRS worker threads (0: every request is evaluated on the event loop). */
  wafWorkers: number;
  /** Inspected bytes (body, request target and headers) from which a request's CRS runs on a worker. */
  wafPoolThreshold: number;
  /** Requests waiting for a worker at most; more are refused (fail closed). */
  wafPoolQueue: number;
}

/** Whether the request carries at least `threshold` bytes to inspect (body, target, header lines). */
function inspectsAtLeast(request: EdgeRequest, threshold: number): boolean {
  let bytes = (request.body?.length ?? 0) + request.url.length;
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length && bytes < threshold; i++) bytes += (raw[i] as string).length;
  return bytes >= threshold;
}

interface Cached<T> {
  value: T;
  expires: number;
  generation: number;
}

/**
 * The engine of the data plane: compiles each zone's configuration into a plan, caches it per zone
 * (dropped on the zone's NOTIFY, or after `planTtlMs`), and evaluates requests against it.
 */
export class EdgeEngine {
  readonly engines: CrsEngines;
  /** Evaluates the CRS of expensive requests off the event loop (started by start(), when configured). */
  pool: CrsPool | undefined;
  private readonly plans = new Map<string, Cached<ZonePlan>>();
  private readonly compiling = new Map<string, Promise<ZonePlan | undefined>>();
  private readonly hosts = new Map<string, Cached<string | null>>();
  private readonly generations = new Map<string, number>();
  private readonly waiters = new Set<(zoneId: string) => void>();
  private unlisten: (() => Promise<void>) | undefined;
  compiles = 0;

  constructor(
    private readonly deps: {
      db: Db;
      catalogue: Catalogue;
      log: Logger;
      /** IP geolocation (ip.src.country, ip.src.asnum…, @geoLookup); none: those fields are empty. */
      geo?: (address: string) => GeoInfo | undefined;
    },
    readonly options: EngineOptions,
  ) {
    // Every regex of the data plane (CRS, Rules language `matches`, URL patterns) gets V8's linear
    // fallback, even before a CRS engine is loaded; throws when it cannot be turned on.
    linearEngine();
    this.engines = new CrsEngines({
      crsDir: options.crsDir,
      bodyLimit: options.bodyLimit,
      maxEngines: options.maxCrsEngines,
      timeBudgetMs: options.timeBudgetMs,
    });
  }

  /** Listens for configuration changes (every process sharing the database hears them). */
  /** Listens for configuration changes (every process sharing the database hears them); sets up the pool. */
  async start(): Promise<void> {
    this.unlisten ??= await this.deps.db.listen(CONFIG_CHANNEL, (zoneId) => this.invalidate(zoneId));
    if (this.options.wafWorkers > 0 && !this.pool) {
      this.pool = new CrsPool({
        workers: this.options.wafWorkers,
        maxQueue: this.options.wafPoolQueue,
        engines: this.engines.options,
        onProblem: (message) => this.deps.log.warn(`edge: ${message}`),
      });
      for (const { value } of this.plans.values()) this.pool.warm(value.crsProfiles);
    }
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    if (unlisten) await unlisten();
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  /** Drops a zone's plan (and every host mapping: a zone may have been created or deleted). */
  invalidate(zoneId: string): void {
    this.generations.set(zoneId, (this.generations.get(zoneId) ?? 0) + 1);
    this.plans.delete(zoneId);
    this.hosts.clear();
    for (const waiter of this.waiters) waiter(zoneId);
  }

  /** Resolves on the next invalidation of `zoneId` (tests and tools wait for a change to arrive). */
  nextInvalidation(zoneId: string, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no configuration change of zone ${zoneId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (id: string) => {
        if (id !== zoneId) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve();
      };
      this.waiters.add(waiter);
    });
  }

  /**
   * The zone serving a Host: the active zone of that name, else of the nearest parent domain
   * (`www.example.com`). A pending zone (ownership not verified) serves nothing: its names stay with
   * the zone above it.
   */
  async zoneIdForHost(host: string): Promise<string | undefined> {
    const now = Date.now();
    const hit = this.hosts.get(host);
    if (hit && hit.expires > now) return hit.value ?? undefined;
    let zoneId: string | null = null;
    const labels = host.split('.');
    for (let i = 0; i + 1 < labels.length && zoneId === null; i++) {
      const zone = await findZoneByName(this.deps.db, labels.slice(i).join('.'));
      if (zone?.status === 'active') zoneId = zone.id;
    }
    if (this.hosts.size > 10_000) this.hosts.clear();
    this.hosts.set(host, { value: zoneId, expires: now + this.options.planTtlMs, generation: 0 });
    return zoneId ?? undefined;
  }

  /** The zone's compiled plan, from the cache or compiled now (concurrent callers share one compile). */
  async planFor(zoneId: string): Promise<ZonePlan | undefined> {
    const hit = this.plans.get(zoneId);
    if (hit && hit.expires > Date.now() && hit.generation === (this.generations.get(zoneId) ?? 0)) {
      return hit.value;
    }
    const running = this.compiling.get(zoneId);
    if (running) return running;
    const generation = this.generations.get(zoneId) ?? 0;
    const job = this.compile(zoneId, generation).finally(() => this.compiling.delete(zoneId));
    this.compiling.set(zoneId, job);
    return job;
  }

  /**
   * The plan serving a Host when both its zone and the zone's plan are cached and fresh, without a
   * promise (the proxy's common case costs no microtask): the plan, null when no zone serves the Host,
   * undefined when either must be looked up (`zoneIdForHost`, `planFor`).
   */
  cachedPlanForHost(host: string): ZonePlan | null | undefined {
    const now = Date.now();
    const zone = this.hosts.get(host);
    if (zone === undefined || zone.expires <= now) return undefined;
    if (zone.value === null) return null;
    const plan = this.plans.get(zone.value);
    if (
      plan === undefined ||
      plan.expires <= now ||
      plan.generation !== (this.generations.get(zone.value) ?? 0)
    )
      return undefined;
    return plan.value;
  }

  private async compile(zoneId: string, generation: number): Promise<ZonePlan | undefined> {
    const zone = await findZone(this.deps.db, zoneId);
    if (!zone) return undefined;
    const warnings: string[] = [];
    const plan = await compileZonePlan(
      this.deps.db,
      {
        catalogue: this.deps.catalogue,
        engines: this.engines,
        warnings,
      },
      zone,
    );
    this.compiles++;
    this.pool?.warm(plan.crsProfiles);
    for (const w of warnings) this.deps.log.warn({ zone: zone.name }, `edge plan: ${w}`);
    if (generation === (this.generations.get(zoneId) ?? 0)) {
      this.plans.set(zoneId, { value: plan, expires: Date.now() + this.options.planTtlMs, generation });
    }
    return plan;
  }

  /** The plan's verdict on a request, evaluated here (on the event loop). */
  evaluate(plan: ZonePlan, request: EdgeRequest): Verdict {
    return evaluatePlan(plan, new RequestView(request, engineScheme(), this.deps.geo));
  }

  /**
   * The plan's verdict as the proxy asks for it: a request with at least `wafPoolThreshold` bytes to
   * inspect, whose plan runs a CRS, is evaluated with the CRS on the worker pool (a promise) once every
   * worker has loaded the plan's CRS engines; every other one here, at once (the common request pays
   * nothing for the pool).
   */
  decide(plan: ZonePlan, request: EdgeRequest): Verdict | Promise<Verdict> {
    const view = new RequestView(request, engineScheme(), this.deps.geo);
    const pool = this.pool;
    if (
      pool !== undefined &&
      plan.crsProfiles.length > 0 &&
      !pool.broken &&
      inspectsAtLeast(request, this.options.wafPoolThreshold) &&
      pool.ready(plan.crsProfiles)
    ) {
      return this.evaluatePooled(pool, plan, view);
    }
    return evaluatePlan(plan, view);
  }

  /**
   * Runs the plan with the CRS answers coming from the pool: each time the plan reaches a CRS whose
   * answer is not there yet (CrsInPool), the pool evaluates it and the plan runs again (the rules before
   * the CRS are cheap; in validation mode two CRS engines may be asked, one after the other).
   */
  private async evaluatePooled(pool: CrsPool, plan: ZonePlan, view: RequestView): Promise<Verdict> {
    const answers: NonNullable<RequestView['crsResults']> = new Map();
    view.crsResults = answers;
    for (;;) {
      try {
        return evaluatePlan(plan, view);
      } catch (error) {
        if (!(error instanceof CrsInPool)) throw error;
        const profile = this.engines.profileOf(error.waf);
        if (!profile) throw new Error('a CRS engine of the plan has no profile');
        // a copy of the body each time: it is handed over (transferred) to the worker
        answers.set(error.waf, await pool.evaluate(profile, view.pooled()));
      }
    }
  }
}
