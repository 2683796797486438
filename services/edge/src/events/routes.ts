import { Reply } from '../api/envelope.ts';
import { invalidParameter } from '../api/errors.ts';
import { pageParams, qEnum, qString } from '../api/query.ts';
import { type EdgeRoute, route } from '../api/route.ts';
import { listEvents, type StoredEvent } from './store.ts';

const ACTIONS = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'log',
  'skip',
  'allow',
  'bypass',
] as const;
const SOURCES = ['firewallCustom', 'firewallManaged', 'waf', 'firewallRules'] as const;

/** An event as the Security Events view reads it (field names of the v4 security events API). */
export function eventJson(e: StoredEvent) {
  return {
    ray_id: e.rayId,
    kind: 'firewall',
    source: e.source,
    action: e.action,
    waf: e.waf,
    phase: e.phase,
    ruleset_id: e.rulesetId,
    rule_id: e.ruleId,
    rule_message: e.description,
    ip: e.clientIp,
    host: e.host,
    method: e.method,
    proto: e.httpProtocol,
    scheme: 'http',
    ua: e.userAgent,
    uri: e.query === '' ? e.path : `${e.path}?${e.query}`,
    path: e.path,
    query: e.query,
    occurred_at: e.occurredAt.toISOString(),
    matches: e.matchedData.map((m) => ({
      name: m.name,
      value: m.value,
      ...(m.ruleId ? { rule_id: m.ruleId } : {}),
      ...(m.message ? { message: m.message } : {}),
    })),
  };
}

const eventSchema = {
  type: 'object',
  properties: {
    ray_id: { type: 'string' },
    kind: { type: 'string' },
    source: { type: 'string', enum: [...SOURCES] },
    action: { type: 'string', enum: [...ACTIONS] },
    waf: { type: ['string', 'null'], enum: ['new', 'previous', null] },
    phase: { type: ['string', 'null'] },
    ruleset_id: { type: ['string', 'null'] },
    rule_id: { type: 'string' },
    rule_message: { type: 'string' },
    ip: { type: 'string' },
    host: { type: 'string' },
    method: { type: 'string' },
    proto: { type: 'string' },
    scheme: { type: 'string' },
    ua: { type: 'string' },
    uri: { type: 'string' },
    path: { type: 'string' },
    query: { type: 'string' },
    occurred_at: { type: 'string', format: 'date-time' },
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          value: { type: 'string' },
          rule_id: { type: 'string' },
          message: { type: 'string' },
        },
        required: ['name', 'value'],
        additionalProperties: false,
      },
    },
  },
  required: ['ray_id', 'source', 'action', 'rule_id', 'occurred_at', 'matches'],
  additionalProperties: false,
};

function date(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime()))
    throw invalidParameter(name, `Query parameter ${name} must be an RFC 3339 time, not "${value}"`);
  return d;
}

export const securityEventRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/zones/:zone_id/security/events',
    summary: 'Security events of a zone: blocked, challenged, logged (sampled) and skipped requests',
    description:
      'Newest first. Recorded by the edge proxy; kept for EDGE_EVENTS_RETENTION_DAYS. Logged, skipped and bypassed requests are sampled (EDGE_EVENTS_LOG_SAMPLE_RATE).',
    access: { zone: 'waf', level: 'read' },
    query: {
      action: qEnum(ACTIONS, 'Only events with this action'),
      source: qEnum(SOURCES, 'Only events from this source'),
      rule_id: qString('Only events of this rule', 64),
      ruleset_id: qString('Only events of this ruleset', 64),
      ray_id: qString('Only the events of this request', 64),
      ip: qString('Only events of this client address', 64),
      host: qString('Only events of this host', 253),
      since: qString('Events at or after this time (RFC 3339)', 64),
      until: qString('Events before this time (RFC 3339)', 64),
      ...pageParams(50, 5, 1000),
    },
    result: { type: 'array', items: eventSchema },
    list: true,
    async handle({ deps, zone, query }) {
      const { events, total } = await listEvents(
        deps.db,
        zone.id,
        {
          ...(query.action ? { action: query.action } : {}),
          ...(query.source ? { source: query.source } : {}),
          ...(query.rule_id ? { ruleId: query.rule_id } : {}),
          ...(query.ruleset_id ? { rulesetId: query.ruleset_id } : {}),
          ...(query.ray_id ? { rayId: query.ray_id } : {}),
          ...(query.ip ? { ip: query.ip } : {}),
          ...(query.host ? { host: query.host } : {}),
          ...(query.since ? { since: date('since', query.since) as Date } : {}),
          ...(query.until ? { until: date('until', query.until) as Date } : {}),
        },
        query.page,
        query.per_page,
      );
      return new Reply(events.map(eventJson), {
        page: query.page,
        per_page: query.per_page,
        count: events.length,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      });
    },
  }),
];
