import type { Queryable } from '@cairn/kit';
import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { MatchedDatum } from '../engine/verdict.ts';
import { type DatasetField, EVENT_FIELDS, fieldByName, GROUP_FIELDS } from './fields.ts';
import { filterToSql, type SqlWhere } from './filter-sql.ts';
import { MAX_LIMIT } from './schema.ts';

export interface DatasetArgs {
  filter?: Record<string, unknown>;
  limit: number;
  orderBy?: string[];
}

function checkLimit(dataset: string, limit: number): void {
  if (limit < 0 || limit > MAX_LIMIT) {
    throw new GraphQLError(`${dataset}: limit must be from 0 to ${MAX_LIMIT}, not ${limit}`);
  }
}

const toTime = (v: unknown) => (v instanceof Date ? v.toISOString().replace(/\.000Z$/, 'Z') : v);

function orderSql(
  orderBy: readonly string[] | undefined,
  allowed: ReadonlySet<string>,
  dataset: string,
): string[] {
  return (orderBy ?? []).map((o) => {
    const m = /^(.+)_(ASC|DESC)$/.exec(o);
    const name = m?.[1] ?? '';
    if (name === 'count') return `count ${m?.[2]}`;
    if (name === 'avg_sampleInterval' && allowed.has('count')) return `avg_sample_interval ${m?.[2]}`;
    const field = fieldByName.get(name);
    if (!m || !field || !allowed.has(name)) {
      throw new GraphQLError(
        `${dataset}: cannot order by ${o}; order by a field the query selects or groups`,
      );
    }
    return `(${field.sql}) ${m[2]}`;
  });
}

/** The zones a dataset node reads: one (viewer.zones) or those of an account the token may read. */
function where(zoneIds: readonly string[], filter: Record<string, unknown> | undefined): SqlWhere {
  const w: SqlWhere =
    zoneIds.length === 1
      ? { clauses: ['zone_id = $1'], params: [zoneIds[0]] }
      : { clauses: ['zone_id = ANY($1::char(32)[])'], params: [zoneIds] };
  filterToSql(filter, w);
  return w;
}

const EVENT_NAMES = new Set(EVENT_FIELDS.map((f) => f.name));

/** firewallEventsAdaptive: single events, newest first unless orderBy says otherwise. */
export async function adaptiveEvents(
  db: Queryable,
  zoneIds: readonly string[],
  args: DatasetArgs,
): Promise<Record<string, unknown>[]> {
  checkLimit('firewallEventsAdaptive', args.limit);
  if (zoneIds.length === 0) return [];
  const w = where(zoneIds, args.filter);
  const order = orderSql(args.orderBy, EVENT_NAMES, 'firewallEventsAdaptive');
  const select = EVENT_FIELDS.map((f: DatasetField, i) => `(${f.sql}) AS c${i}`).join(', ');
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${select}, matched_data FROM edge_security_events WHERE ${w.clauses.join(' AND ')}
     ORDER BY ${[...order, 'occurred_at DESC', 'id DESC'].join(', ')} LIMIT ${args.limit}`,
    w.params,
  );
  return rows.map((r) => {
    const out: Record<string, unknown> = {};
    EVENT_FIELDS.forEach((f, i) => {
      out[f.name] = toTime(r[`c${i}`]);
    });
    const matched = typeof r.matched_data === 'string' ? JSON.parse(r.matched_data) : r.matched_data;
    out.matchedData = (matched as MatchedDatum[]).map((m) => ({
      name: m.name,
      value: m.value,
      ruleId: m.ruleId ?? null,
      message: m.message ?? null,
    }));
    return out;
  });
}

export interface GroupSelection {
  dimensions: string[];
  /** Whether `avg { sampleInterval }` is asked for. */
  average: boolean;
}

/** The dimension fields a groups node selects, and whether it asks for avg (aliases and fragments followed). */
export function selectedGroups(
  nodes: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): GroupSelection {
  const names = new Set<string>();
  let average = false;
  const collect = (set: SelectionSetNode | undefined, inDimensions: boolean, seen: Set<string>) => {
    if (!set) return;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (inDimensions) names.add(sel.name.value);
        else if (sel.name.value === 'dimensions') collect(sel.selectionSet, true, seen);
        else if (sel.name.value === 'avg') average = true;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet, inDimensions, seen);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        collect(fragments[sel.name.value]?.selectionSet, inDimensions, seen);
      }
    }
  };
  for (const node of nodes) collect(node.selectionSet, false, new Set());
  names.delete('__typename');
  return { dimensions: GROUP_FIELDS.filter((f) => names.has(f.name)).map((f) => f.name), average };
}

/**
 * The group dimensions edge_security_event_counts can answer exactly: what it keeps per event (zone,
 * minute, action, source, WAF, phase, ruleset, rule) and what derives from those.
 */
const COUNTED = new Set([
  'action',
  'source',
  'wafVersion',
  'phase',
  'rulesetId',
  'ruleId',
  'kind',
  'edgeResponseStatus',
  'date',
  'datetimeMinute',
  'datetimeFiveMinutes',
  'datetimeFifteenMinutes',
  'datetimeHour',
]);

const wholeMinute = (v: unknown) => typeof v === 'string' && Date.parse(v) % 60_000 === 0;

/**
 * Whether a filter reads only what the counts keep: counted fields, and datetime bounded by whole
 * minutes from below (`_geq`) or above (`_lt`), which select whole minutes of counts.
 */
function countable(filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, value]) => {
    if (value === undefined || value === null) return true;
    if (key === 'AND' || key === 'OR')
      return (value as Record<string, unknown>[]).every((sub) => countable(sub));
    if (key === 'datetime_geq' || key === 'datetime_lt') return wholeMinute(value);
    const name = /^(.*?)(_neq|_gt|_geq|_lt|_leq|_in|_notin|_like|_notlike)?$/.exec(key)?.[1] ?? key;
    return COUNTED.has(name);
  });
}

/**
 * firewallEventsAdaptiveGroups: counts grouped by the selected dimensions, largest first by default.
 * Exact from edge_security_event_counts when the dimensions and the filter are ones it keeps (every
 * event is counted there, sampled or not); otherwise estimated from the stored events, each standing for
 * `sample_interval` requests (exact while the zone's events were not sampled).
 */
export async function adaptiveGroups(
  db: Queryable,
  zoneIds: readonly string[],
  args: DatasetArgs,
  { dimensions, average }: GroupSelection,
): Promise<Record<string, unknown>[]> {
  checkLimit('firewallEventsAdaptiveGroups', args.limit);
  if (zoneIds.length === 0) return [];
  const w = where(zoneIds, args.filter);
  const fields = dimensions.map((d) => fieldByName.get(d) as DatasetField);
  const order = orderSql(args.orderBy, new Set([...dimensions, 'count']), 'firewallEventsAdaptiveGroups');
  const select = fields.map((f, i) => `(${f.sql}) AS d${i}`);
  const group = fields.length === 0 ? '' : `GROUP BY ${fields.map((_, i) => `${i + 1}`).join(', ')}`;
  const exact = dimensions.every((d) => COUNTED.has(d)) && countable(args.filter);
  // Counted exactly, every event stands for itself: the mean interval is 1.
  const [table, count, mean] = exact
    ? ['edge_security_event_counts', 'coalesce(sum(count), 0)::int', '1.0']
    : ['edge_security_events', 'coalesce(round(sum(sample_interval)), 0)::int', 'avg(sample_interval)'];
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${[...select, `${count} AS count`, `${mean}::float8 AS avg_sample_interval`].join(', ')} FROM ${table}
     WHERE ${w.clauses.join(' AND ')} ${group}
     ORDER BY ${[...(order.length > 0 ? order : ['count DESC']), ...fields.map((_, i) => `${i + 1}`)].join(', ')}
     LIMIT ${args.limit}`,
    w.params,
  );
  return rows
    .filter((r) => fields.length > 0 || (r.count as number) > 0)
    .map((r) => ({
      count: r.count,
      ...(average ? { avg: { sampleInterval: r.avg_sample_interval } } : {}),
      dimensions: Object.fromEntries(fields.map((f, i) => [f.name, toTime(r[`d${i}`])])),
    }));
}
