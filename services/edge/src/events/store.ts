import type { Queryable } from '@cairn/kit';
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
] as const;

const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = {
  occurred_at: 'timestamptz',
  matched_data: 'jsonb',
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
];

/** Inserts events in one statement (per zone that still exists: a deleted zone's events are dropped). */
export async function insertEvents(db: Queryable, events: readonly SecurityEventRow[]): Promise<void> {
  if (events.length === 0) return;
  const params: unknown[] = [];
  const tuples = events.map((e, n) => {
    const base = params.length;
    params.push(...values(e));
    const cells = COLUMNS.map((c, i) => `$${base + i + 1}::${CASTS[c] ?? 'text'}`);
    return `(${n}, ${cells.join(', ')})`;
  });
  // Ids follow the given order (the engine's: the new WAF's events before the previous one's).
  await db.query(
    `INSERT INTO edge_security_events (${COLUMNS.join(', ')})
     SELECT ${COLUMNS.map((c) => `v.${c}`).join(', ')} FROM (VALUES ${tuples.join(', ')}) AS v (n, ${COLUMNS.join(', ')})
     WHERE EXISTS (SELECT 1 FROM edge_zones z WHERE z.id = v.zone_id) ORDER BY v.n`,
    params,
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

/** Deletes events older than `before`, and beyond the newest `maxRows` overall. */
export async function pruneEvents(db: Queryable, before: Date, maxRows: number): Promise<number> {
  const old = await db.query('DELETE FROM edge_security_events WHERE occurred_at < $1', [before]);
  const over = await db.query(
    `DELETE FROM edge_security_events WHERE id IN (
       SELECT id FROM edge_security_events ORDER BY occurred_at DESC, id DESC OFFSET $1)`,
    [maxRows],
  );
  return old.rowCount + over.rowCount;
}
