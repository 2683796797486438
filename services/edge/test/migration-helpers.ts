import { openPostgres, type Queryable, type QueryResult } from '@cairn/kit';
import { createZone, type PlanName, type Zone } from '../src/index.ts';
import { type Answer, call, type EdgeFixture } from './helpers.ts';

let counter = 0;

/** A new zone of a plan (the upgrade is irreversible: each scenario gets its own zone). */
export async function freshZone(f: EdgeFixture, plan: PlanName, prefix = 'up'): Promise<Zone> {
  counter += 1;
  return createZone(f.edge.deps, {
    accountId: f.accountId,
    name: `${prefix}-${plan}-${counter}-${process.pid}.example.com`,
    plan,
  });
}

export const migrationPaths = (zoneId: string) => ({
  check: `/zones/${zoneId}/waf_migration/check`,
  config: `/zones/${zoneId}/waf_migration/config`,
  status: `/zones/${zoneId}/waf_migration/status`,
  history: `/zones/${zoneId}/waf_migration/history`,
  entrypoint: `/zones/${zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint`,
});

/** GET config, then PUT it back with waf_migration (the API upgrade procedure). */
export async function upgradeWithConfig(
  f: Pick<EdgeFixture, 'api' | 'token'>,
  zoneId: string,
  mode: string,
  options: { phaseTwo?: boolean; body?: unknown; token?: string } = {},
): Promise<Answer> {
  const p = migrationPaths(zoneId);
  const q = options.phaseTwo === false ? '' : '&phase_two=1';
  const body = options.body ?? (await call(f, 'GET', `${p.config}?phase_two=1`)).body.result;
  return call(f, 'PUT', `${p.entrypoint}?waf_migration=${mode}${q}`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
}

/** Everything the upgrade may write for a zone, to prove a refused or killed upgrade changed nothing. */
export async function storeSnapshot(f: Pick<EdgeFixture, 'deps'>, zoneId: string) {
  const db = f.deps.db;
  const zone = await db.query(
    'SELECT plan, waf_migration_state, waf_migration_changed_at, modified_on FROM edge_zones WHERE id = $1',
    [zoneId],
  );
  const rulesets = await db.query(
    `SELECT r.id, r.phase, r.version, v.version AS v, v.rules FROM edge_rulesets r
       LEFT JOIN edge_ruleset_versions v ON v.ruleset_id = r.id WHERE r.zone_id = $1 ORDER BY r.phase, v.version`,
    [zoneId],
  );
  const events = await db.query('SELECT * FROM edge_waf_migration_events WHERE zone_id = $1 ORDER BY seq', [
    zoneId,
  ]);
  const legacy = await db.query(
    `SELECT 'p' AS t, package_id AS id, sensitivity || '/' || action_mode AS v FROM edge_waf_packages WHERE zone_id = $1
     UNION ALL SELECT 'g', group_id, mode FROM edge_waf_group_modes WHERE zone_id = $1
     UNION ALL SELECT 'r', rule_id, mode FROM edge_waf_rule_modes WHERE zone_id = $1
     UNION ALL SELECT 'o', id, urls::text FROM edge_waf_overrides WHERE zone_id = $1
     UNION ALL SELECT 's', setting_id, value::text FROM edge_zone_settings WHERE zone_id = $1
     ORDER BY 1, 2`,
    [zoneId],
  );
  return { zone: zone.rows, rulesets: rulesets.rows, events: events.rows, legacy: legacy.rows };
}

/** A promise with its resolve function outside (Node 20 has no Promise.withResolvers). */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Holds the first upgrade that reaches the end of its transaction (every write done, the zone row locked,
 * nothing committed) until the test calls `release()`; `held` resolves with its zone id then. Upgrades
 * after the first pass through. `waiters(n, request)` resolves once n others wait behind it:
 *  - on PostgreSQL, n backends of the test database wait on a lock (pg_stat_activity, asked on a
 *    connection of its own: the pool may be full of waiters);
 *  - on PGlite (one connection: every query and transaction queues behind the open one), n database
 *    calls are in flight beside the held transaction.
 * It stops early when `request` settles (one that did not wait: the test's assertions say so then).
 */
export function holdUpgrade(f: Pick<EdgeFixture, 'edge' | 'deps'>) {
  const held = deferred<string>();
  const released = deferred();
  let holding = false;
  f.edge.deps.upgradeHooks = {
    async beforeCommit(zoneId) {
      if (holding) return;
      holding = true;
      held.resolve(zoneId);
      await released.promise;
    },
  };
  // Database calls in flight; on PGlite all but the held transaction queue behind it.
  const db = f.deps.db;
  const { query, transaction } = db;
  let inFlight = 0;
  const counted = <T>(call: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    return call().finally(() => {
      inFlight -= 1;
    });
  };
  db.query = <R>(...args: Parameters<typeof query>) =>
    counted(() => query.apply(db, args) as Promise<QueryResult<R>>);
  db.transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
    counted(() => transaction.call(db, fn) as Promise<T>);
  return {
    held: held.promise,
    release: () => released.resolve(),
    async waiters(n: number, request: Promise<unknown>) {
      if (db.engine === 'pglite') await until(async () => inFlight - 1 >= n, request);
      else await lockWaiters((db as { url?: string }).url ?? '', n, request);
    },
    uninstall: () => {
      released.resolve();
      f.edge.deps.upgradeHooks = undefined;
      db.query = query;
      db.transaction = transaction;
    },
  };
}

/** Resolves once `condition` holds, asking again every 5 ms, or once `request` settled (it did not wait). */
async function until(condition: () => Promise<boolean>, request: Promise<unknown>): Promise<void> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  void request.then(mark, mark);
  while (!settled && !(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Resolves once n backends of the PostgreSQL database at `url` wait on a lock, or `request` settled;
 * asks on a connection of its own (the pool may be full of waiters).
 */
export async function lockWaiters(url: string, n: number, request: Promise<unknown>): Promise<void> {
  const probe = openPostgres(url, { max: 1 });
  try {
    const waiting = async () => {
      const { rows } = await probe.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return (rows[0]?.n ?? 0) >= n;
    };
    await until(waiting, request);
  } finally {
    await probe.close();
  }
}
