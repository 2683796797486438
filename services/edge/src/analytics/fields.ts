/**
 * The fields of the firewallEventsAdaptive datasets (the real GraphQL Analytics API's names) and the SQL
 * each reads from edge_security_events. One table serves the list, the filters, the groups and orderBy.
 */

/** The real schema's scalar names (GraphQL Analytics writes them lower-case). */
export type FieldType = 'string' | 'Time' | 'Date' | 'uint16' | 'uint32';

export interface DatasetField {
  name: string;
  type: FieldType;
  /** An SQL expression over edge_security_events (never built from input). */
  sql: string;
  description: string;
}

const TERMINATING = `action IN ('block','challenge','js_challenge','managed_challenge')`;
// The edge answers 403 for a terminating action; for log, skip, allow and bypass the status was the
// origin's, which the event does not keep (null).
const EDGE_STATUS = `CASE WHEN ${TERMINATING} THEN 403 END`;
// A terminated request never reached the origin: the real API says 0. Otherwise unknown (null): the
// event is recorded before the origin answers.
const ORIGIN_STATUS = `CASE WHEN ${TERMINATING} THEN 0 END`;
// The events of one request share its time and Ray ID; ids keep the engine's order.
const MATCH_INDEX = `(SELECT count(*)::int FROM edge_security_events m WHERE m.zone_id = edge_security_events.zone_id
  AND m.occurred_at = edge_security_events.occurred_at AND m.ray_id = edge_security_events.ray_id
  AND m.id < edge_security_events.id)`;

const text = (name: string, sql: string, description: string): DatasetField => ({
  name,
  type: 'string',
  sql,
  description,
});

export const EVENT_FIELDS: readonly DatasetField[] = [
  text('action', 'action', 'block, managed_challenge, log, skip, ...'),
  text('clientASNDescription', 'client_asn_description', 'The AS of the client, by name (the ASN table)'),
  text('clientAsn', 'client_asn', 'The AS number of the client, as a string (e.g. 13335)'),
  text('clientCountryName', 'client_country', 'The country of the client, ISO 3166-1 alpha-2 (e.g. GB)'),
  text('clientIP', 'client_ip', 'The client address'),
  text('clientRefererHost', 'referer_host', 'The host of the Referer header'),
  text('clientRequestHTTPHost', 'host', 'The Host of the request'),
  text('clientRequestHTTPMethodName', 'method', 'GET, POST, ...'),
  text('clientRequestHTTPProtocol', 'http_protocol', 'HTTP/1.1, ...'),
  text('clientRequestPath', 'path', 'The path, without the query'),
  text('clientRequestQuery', 'query', 'The query string, without ?'),
  { name: 'datetime', type: 'Time', sql: 'occurred_at', description: 'When the request arrived (RFC 3339)' },
  text('description', 'description', 'The rule description'),
  text('edgeColoName', `'CRN'`, 'The data centre: CRN, this Cairn edge (the colo of its cf-ray header)'),
  {
    name: 'edgeResponseStatus',
    type: 'uint16',
    sql: EDGE_STATUS,
    description: '403 for a terminating action',
  },
  {
    name: 'httpApplicationVersion',
    type: 'uint32',
    sql: '0',
    description: 'The version of the zone configuration (Cairn does not version it: 0)',
  },
  text('kind', `'firewall'`, 'Always firewall'),
  {
    name: 'matchIndex',
    type: 'uint16',
    sql: MATCH_INDEX,
    description: 'The position of this match among the events of its request, from 0',
  },
  {
    name: 'originResponseStatus',
    type: 'uint16',
    sql: ORIGIN_STATUS,
    description: '0 when the edge answered (a terminating action); null when unknown',
  },
  text('phase', `coalesce(phase, '')`, 'The Rulesets phase (empty for the previous WAF)'),
  text('rayName', 'ray_id', 'The Ray ID of the request'),
  text('ruleId', 'rule_id', 'The rule that matched'),
  text('rulesetId', `coalesce(ruleset_id, '')`, 'Its ruleset (or previous-WAF package)'),
  {
    name: 'sampleInterval',
    type: 'uint32',
    sql: 'greatest(1, round(sample_interval))::int',
    description: 'How many requests this event stands for (1: not sampled)',
  },
  text('source', 'source', 'firewallManaged (new WAF), waf (previous WAF), firewallCustom, firewallRules'),
  text('userAgent', 'user_agent', 'The User-Agent header'),
  text('wafVersion', `coalesce(waf, '')`, 'Cairn: new or previous, for managed-rule events'),
];

const epochBucket = (seconds: number) =>
  `to_timestamp(floor(extract(epoch FROM occurred_at) / ${seconds}) * ${seconds})`;

/** Group dimensions: the event fields plus the real time buckets. */
export const GROUP_FIELDS: readonly DatasetField[] = [
  ...EVENT_FIELDS,
  {
    name: 'date',
    type: 'Date',
    sql: `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    description: 'The UTC day (YYYY-MM-DD)',
  },
  { name: 'datetimeMinute', type: 'Time', sql: epochBucket(60), description: 'The minute' },
  { name: 'datetimeFiveMinutes', type: 'Time', sql: epochBucket(300), description: 'The five minutes' },
  { name: 'datetimeFifteenMinutes', type: 'Time', sql: epochBucket(900), description: 'The fifteen minutes' },
  { name: 'datetimeHour', type: 'Time', sql: epochBucket(3600), description: 'The hour' },
];

export const fieldByName = new Map(GROUP_FIELDS.map((f) => [f.name, f]));

/** The real filter operators: a field alone is equality. */
export const OPERATORS = [
  '',
  '_neq',
  '_gt',
  '_geq',
  '_lt',
  '_leq',
  '_in',
  '_notin',
  '_like',
  '_notlike',
] as const;
export type Operator = (typeof OPERATORS)[number];
