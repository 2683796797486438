/**
 * The fields of the firewallEventsAdaptive datasets (the real GraphQL Analytics API's names) and the SQL
 * each reads from edge_security_events. One table serves the list, the filters, the groups and orderBy.
 */
export type FieldType = 'String' | 'Time' | 'Int';

export interface DatasetField {
  name: string;
  type: FieldType;
  /** An SQL expression over edge_security_events (never built from input). */
  sql: string;
  description: string;
}

// The edge answers 403 for a terminating action; for log, skip, allow and bypass the status was the
// origin's, which the event does not keep (null).
const EDGE_STATUS = `CASE WHEN action IN ('block','challenge','js_challenge','managed_challenge') THEN 403 END`;

export const EVENT_FIELDS: readonly DatasetField[] = [
  { name: 'action', type: 'String', sql: 'action', description: 'block, managed_challenge, log, skip, ...' },
  { name: 'clientIP', type: 'String', sql: 'client_ip', description: 'The client address' },
  { name: 'clientRequestHTTPHost', type: 'String', sql: 'host', description: 'The Host of the request' },
  { name: 'clientRequestHTTPMethodName', type: 'String', sql: 'method', description: 'GET, POST, ...' },
  { name: 'clientRequestHTTPProtocol', type: 'String', sql: 'http_protocol', description: 'HTTP/1.1, ...' },
  { name: 'clientRequestPath', type: 'String', sql: 'path', description: 'The path, without the query' },
  { name: 'clientRequestQuery', type: 'String', sql: 'query', description: 'The query string, without ?' },
  { name: 'datetime', type: 'Time', sql: 'occurred_at', description: 'When the request arrived (RFC 3339)' },
  { name: 'description', type: 'String', sql: 'description', description: 'The rule description' },
  { name: 'edgeResponseStatus', type: 'Int', sql: EDGE_STATUS, description: '403 for a terminating action' },
  { name: 'kind', type: 'String', sql: `'firewall'`, description: 'Always firewall' },
  {
    name: 'phase',
    type: 'String',
    sql: `coalesce(phase, '')`,
    description: 'The Rulesets phase (empty for the previous WAF)',
  },
  { name: 'rayName', type: 'String', sql: 'ray_id', description: 'The Ray ID of the request' },
  { name: 'ruleId', type: 'String', sql: 'rule_id', description: 'The rule that matched' },
  {
    name: 'rulesetId',
    type: 'String',
    sql: `coalesce(ruleset_id, '')`,
    description: 'Its ruleset (or previous-WAF package)',
  },
  {
    name: 'source',
    type: 'String',
    sql: 'source',
    description: 'firewallManaged (new WAF), waf (previous WAF), firewallCustom, firewallRules',
  },
  { name: 'userAgent', type: 'String', sql: 'user_agent', description: 'The User-Agent header' },
  {
    name: 'wafVersion',
    type: 'String',
    sql: `coalesce(waf, '')`,
    description: 'Cairn: new or previous, for managed-rule events',
  },
];

const epochBucket = (seconds: number) =>
  `to_timestamp(floor(extract(epoch FROM occurred_at) / ${seconds}) * ${seconds})`;

/** Group dimensions: the event fields plus the real time buckets. */
export const GROUP_FIELDS: readonly DatasetField[] = [
  ...EVENT_FIELDS,
  {
    name: 'date',
    type: 'String',
    sql: `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    description: 'The UTC day',
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
