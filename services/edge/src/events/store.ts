import type { Db, Queryable } from '@cairn/kit';
import type { MatchedDatum } from '../engine/verdict.ts';

/** One security event as stored (table edge_security_events). */
export interface SecurityEventRow {
  zoneId: string;
  occurredAt: Date;
  rayId: string;
  action: string;
  source: string;
  waf: string | null;
  phase: string | null;
  rulesetId: string | null;
  ruleId: string;
  description: string;
  clientIp: string;
  method: string;
  host: string;
  path: string;
  query: string;
  userAgent: string;
  httpProtocol: string;
  matchedData: MatchedDatum[];
  /** How many requests this row stands for (1 unless the zone's events were being sampled). */
  sampleInterval: number;
  /** The client's country (ISO 3166-1 alpha-2) and AS from the IP databases; '' or absent: unknown. */
  clientCountry?: string;
  clientAsn?: string;
  clientAsnDescription?: string;
  /** The host of the Referer header ('' without one). */
  refererHost?: string;
}

export interface StoredEvent extends SecurityEventRow {
  id: number;
}

interface Row {
  id: number;
  zone_id: string;
  occurred_at: Date;
  ray_id: string;
  action: string;
  source: string;
  waf: string | null;
  phase: string | null;
  ruleset_id: string | null;
  rule_id: string;
  description: string;
  client_ip: string;
  method: string;
  host: string;
  path: string;
  query: string;
  user_agent: string;
  http_protocol: string;
  matched_data: MatchedDatum[] | string;
  sample_interval: number;
  client_country: string;
  client_asn: string;
  client_asn_description: string;
  referer_host: string;
}

const COLUMNS = [
  'zone_id',
  'occurred_at',
  'ray_id',
  'action',
  'source',
  'waf',
  'phase',
  'ruleset_id',
  'rule_id',
  'description',
  'client_ip',
  'method',
  'host',
  'path',
  'query',
  'user_agent',
  'http_protocol',
  'matched_data',
  'sample_interval',
  'client_country',
  'client_asn',
  'client_asn_description',
  'referer_host',
] as const;

const CASTS: Record<(typeof COLUMNS)[number], string> = {
  zone_id: 'text',
  occurred_at: 'timestamptz',
  ray_id: 'text',
  action: 'text',
  source: 'text',
  waf: 'text',
  phase: 'text',
  ruleset_id: 'text',
  rule_id: 'text',
  description: 'text',
  client_ip: 'text',
  method: 'text',
  host: 'text',
  path: 'text',
  query: 'text',
  user_agent: 'text',
  http_protocol: 'text',
  matched_data: 'jsonb',
  sample_interval: 'real',
  client_country: 'text',
  client_asn: 'text',
  client_asn_description: 'text',
  referer_host: 'text',
};

const values = (e: SecurityEventRow): unknown[] => [
  e.zoneId,
  e.occurredAt,
  e.rayId,
  e.action,
  e.source,
  e.waf,
  e.phase,
  e.rulesetId,
  e.ruleId,
  e.description,
  e.clientIp,
  e.method,
  e.host,
  e.path,
  e.query,
  e.userAgent,
  e.httpProtocol,
  JSON.stringify(e.matchedData),
  e.sampleInterval,
  e.clientCountry ?? '',
  e.clientAsn ?? '',
  e.clientAsnDescription ?? '',
  e.refererHost ?? '',
];

/**
 * Inserts events in one statement (per zone that still exists: a deleted zone's events are dropped).
 * One array per column, unnested: a fixed 23 parameters whatever the batch size, which costs the client
 * a third to a half of the CPU of one parameter per column and row (PGlite and node-postgres, 100–500 rows).
 */
export async function insertEvents(db: Queryable, events: readonly SecurityEventRow[]): Promise<void> {
  if (events.length === 0) return;
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const e of events) {
    const row = values(e);
    for (let i = 0; i < row.length; i++) (columns[i] as unknown[]).push(row[i]);
  }
  const arrays = COLUMNS.map((c, i) => `$${i + 1}::${CASTS[c]}[]`);
  // Ids follow the given order (the engine's: the new WAF's events before the previous one's).
  await db.query(
    `INSERT INTO edge_security_events (${COLUMNS.join(', ')})
     SELECT ${COLUMNS.map((c) => `v.${c}`).join(', ')}
     FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS v (${COLUMNS.join(', ')}, n)
     WHERE EXISTS (SELECT 1 FROM edge_zones z WHERE z.id = v.zone_id) ORDER BY v.n`,
    columns,
    { prepare: true },
  );
}

export interface EventFilter {
  action?: string;
  source?: string;
  ruleId?: string;
  rulesetId?: string;
  rayId?: string;
  ip?: string;
  host?: string;
  since?: Date;
  until?: Date;
}

const toEvent = (r: Row): StoredEvent => ({
  id: r.id,
  zoneId: r.zone_id,
  occurredAt: r.occurred_at,
  rayId: r.ray_id,
  action: r.action,
  source: r.source,
  waf: r.waf,
  phase: r.phase,
  rulesetId: r.ruleset_id,
  ruleId: r.rule_id,
  description: r.description,
  clientIp: r.client_ip,
  method: r.method,
  host: r.host,
  path: r.path,
  query: r.query,
  userAgent: r.user_agent,
  httpProtocol: r.http_protocol,
  matchedData:
    typeof r.matched_data === 'string' ? (JSON.parse(r.matched_data) as MatchedDatum[]) : r.matched_data,
  sampleInterval: r.sample_interval,
  clientCountry: r.client_country,
  clientAsn: r.client_asn,
  clientAsnDescription: r.client_asn_description,
  refererHost: r.referer_host,
});

/** A page of a zone's events, newest first, and how many match in all. */
export async function listEvents(
  db: Queryable,
  zoneId: string,
  filter: EventFilter,
  page: number,
  perPage: number,
): Promise<{ events: StoredEvent[]; total: number }> {
  const where = ['zone_id = $1'];
  const params: unknown[] = [zoneId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.action) add('action = ?', filter.action);
  if (filter.source) add('source = ?', filter.source);
  if (filter.ruleId) add('rule_id = ?', filter.ruleId);
  if (filter.rulesetId) add('ruleset_id = ?', filter.rulesetId);
  if (filter.rayId) add('ray_id = ?', filter.rayId);
  if (filter.ip) add('client_ip = ?', filter.ip);
  if (filter.host) add('host = ?', filter.host);
  if (filter.since) add('occurred_at >= ?', filter.since);
  if (filter.until) add('occurred_at < ?', filter.until);
  const clause = where.join(' AND ');
  const { rows: count } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM edge_security_events WHERE ${clause}`,
    params,
  );
  const { rows } = await db.query<Row>(
    `SELECT * FROM edge_security_events WHERE ${clause} ORDER BY occurred_at DESC, id DESC
     LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    params,
  );
  return { events: rows.map(toEvent), total: count[0]?.n ?? 0 };
}

/** Deletes events and counts older than `before`, and events beyond the newest `maxRows` overall. */
export async function pruneEvents(db: Queryable, before: Date, maxRows: number): Promise<number> {
  const old = await db.query('DELETE FROM edge_security_events WHERE occurred_at < $1', [before]);
  const over = await db.query(
    `DELETE FROM edge_security_events WHERE id IN (
       SELECT id FROM edge_security_events ORDER BY occurred_at DESC, id DESC OFFSET $1)`,
    [maxRows],
  );
  // A minute's count goes when the whole minute is older than the bound.
  const counts = await db.query(
    `DELETE FROM edge_security_event_counts WHERE occurred_at < $1::timestamptz - interval '1 minute'`,
    [before],
  );
  return old.rowCount + over.rowCount + counts.rowCount;
}

/** Events counted in one zone's minute for one action and rule ('' for a missing waf, phase, ruleset). */
export interface EventCount {
  zoneId: string;
  minute: Date;
  action: string;
  source: string;
  waf: string;
  phase: string;
  rulesetId: string;
  ruleId: string;
  count: number;
}

/** Adds counts to edge_security_event_counts in one statement (a deleted zone's are dropped). */
export async function addEventCounts(db: Queryable, counts: readonly EventCount[]): Promise<void> {
  if (counts.length === 0) return;
  const params: unknown[] = [];
  const tuples = counts.map((c) => {
    const base = params.length;
    params.push(c.zoneId, c.minute, c.action, c.source, c.waf, c.phase, c.rulesetId, c.ruleId, c.count);
    const p = (i: number) => `$${base + i}`;
    return `(${p(1)}::text, ${p(2)}::timestamptz, ${p(3)}::text, ${p(4)}::text, ${p(5)}::text, ${p(6)}::text, ${p(7)}::text, ${p(8)}::text, ${p(9)}::bigint)`;
  });
  // Sorted by key, so two processes adding to the same rows lock them in the same order (no deadlock).
  await db.query(
    `INSERT INTO edge_security_event_counts AS c
       (zone_id, occurred_at, action, source, waf, phase, ruleset_id, rule_id, count)
     SELECT v.* FROM (VALUES ${tuples.join(', ')})
       AS v (zone_id, occurred_at, action, source, waf, phase, ruleset_id, rule_id, count)
     WHERE EXISTS (SELECT 1 FROM edge_zones z WHERE z.id = v.zone_id)
     ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
     ON CONFLICT (zone_id, occurred_at, action, source, waf, phase, ruleset_id, rule_id)
     DO UPDATE SET count = c.count + excluded.count`,
    params,
  );
}

/**
 * Runs `job` in a transaction if it last ran `everyMs` or more before `now`, whichever process asks:
 * the job's row in edge_jobs is locked while it runs, and a process that finds it locked skips it (SKIP
 * LOCKED). Returns the job's result, or undefined when it was not due or is running elsewhere.
 */
export async function runJobOnce<T>(
  db: Db,
  name: string,
  now: Date,
  everyMs: number,
  job: (tx: Queryable) => Promise<T>,
): Promise<T | undefined> {
  await db.query(
    `INSERT INTO edge_jobs (name, last_run) VALUES ($1, '-infinity') ON CONFLICT (name) DO NOTHING`,
    [name],
  );
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ due: boolean }>(
      `SELECT last_run <= $2::timestamptz - $3 * interval '1 millisecond' AS due
         FROM edge_jobs WHERE name = $1 FOR UPDATE SKIP LOCKED`,
      [name, now, everyMs],
    );
    if (!rows[0]?.due) return undefined;
    const result = await job(tx);
    await tx.query('UPDATE edge_jobs SET last_run = $2 WHERE name = $1', [name, now]);
    return result;
  });
}
