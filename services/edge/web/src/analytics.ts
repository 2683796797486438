import { api } from './api.ts';

/** The Security Events page's questions, all answered by one GraphQL Analytics API query. */
export type Dimension = 'ruleId' | 'clientRequestPath' | 'clientIP' | 'userAgent' | 'source' | 'action';

export interface Filters {
  /** Minutes back from now. */
  range: number;
  fields: Partial<Record<Dimension, string>>;
}

export const RANGES: { minutes: number; label: string; bucket: Bucket; seconds: number }[] = [
  { minutes: 30, label: 'Last 30 minutes', bucket: 'datetimeMinute', seconds: 60 },
  { minutes: 360, label: 'Last 6 hours', bucket: 'datetimeFiveMinutes', seconds: 300 },
  { minutes: 1440, label: 'Last 24 hours', bucket: 'datetimeFifteenMinutes', seconds: 900 },
  { minutes: 10080, label: 'Last 7 days', bucket: 'datetimeHour', seconds: 3600 },
];

export type Bucket = 'datetimeMinute' | 'datetimeFiveMinutes' | 'datetimeFifteenMinutes' | 'datetimeHour';

export interface Group {
  count: number;
  dimensions: Record<string, string>;
}

export interface EventRow {
  action: string;
  clientIP: string;
  clientRequestHTTPMethodName: string;
  clientRequestPath: string;
  clientRequestQuery: string;
  datetime: string;
  description: string;
  edgeResponseStatus: number | null;
  rayName: string;
  ruleId: string;
  rulesetId: string;
  source: string;
  userAgent: string;
  wafVersion: string;
  matchedData: { name: string; value: string; ruleId: string | null; message: string | null }[];
}

export interface Overview {
  since: string;
  total: number;
  timeline: Group[];
  top: Record<Exclude<Dimension, 'action'>, Group[]>;
  events: EventRow[];
}

const TOP = 'limit: 5, orderBy: [count_DESC]';

const query = (bucket: Bucket) => `
query SecurityEvents($zoneTag: String!, $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject, $events: ZoneFirewallEventsAdaptiveFilter_InputObject) {
  viewer {
    zones(filter: { zoneTag: $zoneTag }) {
      total: firewallEventsAdaptiveGroups(filter: $filter, limit: 1) { count }
      timeline: firewallEventsAdaptiveGroups(filter: $filter, limit: 5000, orderBy: [${bucket}_ASC]) { count dimensions { action bucket: ${bucket} } }
      ruleId: firewallEventsAdaptiveGroups(filter: $filter, ${TOP}) { count dimensions { ruleId description rulesetId source } }
      clientRequestPath: firewallEventsAdaptiveGroups(filter: $filter, ${TOP}) { count dimensions { clientRequestPath } }
      clientIP: firewallEventsAdaptiveGroups(filter: $filter, ${TOP}) { count dimensions { clientIP } }
      userAgent: firewallEventsAdaptiveGroups(filter: $filter, ${TOP}) { count dimensions { userAgent } }
      source: firewallEventsAdaptiveGroups(filter: $filter, ${TOP}) { count dimensions { source } }
      events: firewallEventsAdaptive(filter: $events, limit: 50, orderBy: [datetime_DESC]) {
        action clientIP clientRequestHTTPMethodName clientRequestPath clientRequestQuery datetime description
        edgeResponseStatus rayName ruleId rulesetId source userAgent wafVersion
        matchedData { name value ruleId message }
      }
    }
  }
}`;

type Answer = {
  viewer: {
    zones: (Record<'total' | 'timeline' | Exclude<Dimension, 'action'>, Group[]> & { events: EventRow[] })[];
  };
};

export async function overview(zoneTag: string, filters: Filters, now = Date.now()): Promise<Overview> {
  const range = RANGES.find((r) => r.minutes === filters.range) ?? RANGES[0]!;
  const since = new Date(now - range.minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const filter = { datetime_geq: since, ...filters.fields };
  const data = await api.graphql<Answer>(query(range.bucket), { zoneTag, filter, events: filter });
  const z = data.viewer.zones[0];
  if (!z) throw new Error('the zone is not readable with this session');
  return {
    since,
    total: z.total[0]?.count ?? 0,
    timeline: z.timeline,
    top: {
      ruleId: z.ruleId,
      clientRequestPath: z.clientRequestPath,
      clientIP: z.clientIP,
      userAgent: z.userAgent,
      source: z.source,
    },
    events: z.events,
  };
}
