import type { Db, Logger } from '@cairn/kit';
import { linearEngine } from '@cairn/seclang';
import { findZone, findZoneByName } from '../api/zones/store.ts';
import type { GeoInfo } from '../geo/database.ts';
import type { Catalogue } from '../managed/catalogue.ts';
import { CrsEngines } from './crs-engines.ts';
import { engineScheme } from './expressions.ts';
import { compileZonePlan, evaluatePlan, type ZonePlan } from './plan.ts';
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
  async start(): Promise<void> {
    this.unlisten ??= await this.deps.db.listen(CONFIG_CHANNEL, (zoneId) => this.invalidate(zoneId));
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    if (unlisten) await unlisten();
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
    for (const w of warnings) this.deps.log.warn({ zone: zone.name }, `edge plan: ${w}`);
    if (generation === (this.generations.get(zoneId) ?? 0)) {
      this.plans.set(zoneId, { value: plan, expires: Date.now() + this.options.planTtlMs, generation });
    }
    return plan;
  }

  evaluate(plan: ZonePlan, request: EdgeRequest): Verdict {
    return evaluatePlan(plan, new RequestView(request, engineScheme(), this.deps.geo));
  }
}
