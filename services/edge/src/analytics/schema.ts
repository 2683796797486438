import { buildSchema, type GraphQLSchema } from 'graphql';
import { type DatasetField, EVENT_FIELDS, GROUP_FIELDS, OPERATORS } from './fields.ts';
import { checkScalars, SCALARS_SDL } from './scalars.ts';

/** The most rows one dataset node may ask for (the real API's limit argument is bounded the same way). */
export const MAX_LIMIT = 10_000;

/**
 * The filter input types, by the names introspection gives them and by the names the documentation
 * writes (`FirewallEventsAdaptiveFilter_InputObject`). All take every field of the groups datasets, so a
 * variable declared with any of them fits either dataset (variables.ts lets such a declaration through).
 */
export const FILTER_INPUTS = [
  'ZoneFirewallEventsAdaptiveFilter_InputObject',
  'ZoneFirewallEventsAdaptiveGroupsFilter_InputObject',
  'AccountFirewallEventsAdaptiveFilter_InputObject',
  'AccountFirewallEventsAdaptiveGroupsFilter_InputObject',
  'FirewallEventsAdaptiveFilter_InputObject',
  'FirewallEventsAdaptiveGroupsFilter_InputObject',
] as const;

const listType = (t: string) => `[${t}!]`;

function filterInput(name: string, fields: readonly DatasetField[]): string {
  const lines: string[] = [];
  for (const f of fields) {
    for (const op of OPERATORS) {
      if ((op === '_like' || op === '_notlike') && f.type !== 'string') continue;
      lines.push(`  ${f.name}${op}: ${op === '_in' || op === '_notin' ? listType(f.type) : f.type}`);
    }
  }
  return `input ${name} {\n  AND: [${name}!]\n  OR: [${name}!]\n${lines.join('\n')}\n}`;
}

function orderEnum(name: string, fields: readonly DatasetField[], groups: boolean): string {
  const values = fields.flatMap((f) => [`${f.name}_ASC`, `${f.name}_DESC`]);
  if (groups) values.push('count_ASC', 'count_DESC', 'avg_sampleInterval_ASC', 'avg_sampleInterval_DESC');
  return `enum ${name} {\n  ${values.join('\n  ')}\n}`;
}

const objectType = (name: string, fields: readonly DatasetField[], extra = '') =>
  `type ${name} {\n${fields.map((f) => `  "${f.description}"\n  ${f.name}: ${f.type}`).join('\n')}\n${extra}}`;

/** One scope's (zone or account) two datasets: their object, filter and order types. */
function datasets(scope: 'Zone' | 'Account'): { fields: string; types: string } {
  const events = `${scope}FirewallEventsAdaptive`;
  const groups = `${scope}FirewallEventsAdaptiveGroups`;
  const fields = `
  "Security events, one per rule match (sampled at volume: see sampleInterval)"
  firewallEventsAdaptive(
    filter: ${events}Filter_InputObject
    limit: Int!
    orderBy: [${events}OrderBy!]
  ): [${events}!]!
  "Security events counted by the dimensions selected"
  firewallEventsAdaptiveGroups(
    filter: ${groups}Filter_InputObject
    limit: Int!
    orderBy: [${groups}OrderBy!]
  ): [${groups}!]!
  "What each dataset allows this token"
  settings: Settings!`;
  const types = `
${objectType(events, EVENT_FIELDS, '  "Cairn: the matched data of the rule"\n  matchedData: [MatchedDatum!]!\n')}

${objectType(`${groups}Dimensions`, GROUP_FIELDS)}

type ${groups}Average {
  "The mean of sampleInterval over the events counted (1 when counted exactly)"
  sampleInterval: float64
}

type ${groups} {
  "How many events (each sampled event counts sampleInterval times)"
  count: uint64!
  avg: ${groups}Average
  dimensions: ${groups}Dimensions
}

${orderEnum(`${events}OrderBy`, EVENT_FIELDS, false)}

${orderEnum(`${groups}OrderBy`, GROUP_FIELDS, true)}
`;
  return { fields, types };
}

const zone = datasets('Zone');
const account = datasets('Account');

/**
 * The subset of the GraphQL Analytics API that Security Events reads, with the real names:
 * viewer → zones(filter: {zoneTag}) and accounts(filter: {accountTag}) → firewallEventsAdaptive,
 * firewallEventsAdaptiveGroups and settings.
 */
export const ANALYTICS_SDL = `
${SCALARS_SDL}

type Query {
  viewer: viewer!
}

type viewer {
  zones(filter: ZoneFilter_InputObject, limit: Int): [zone!]!
  accounts(filter: AccountFilter_InputObject, limit: Int): [account!]!
}

input ZoneFilter_InputObject {
  zoneTag: string
  zoneTag_in: [string!]
}

input AccountFilter_InputObject {
  accountTag: string
}

type zone {
  zoneTag: string!
${zone.fields}
}

type account {
  accountTag: string!
${account.fields}
}

"The limits of a dataset (the settings node of the real API)"
type DatasetSettings {
  enabled: bool!
  availableFields: [string!]!
  "How wide a time range one query may ask for, in seconds"
  maxDuration: uint64!
  maxNumberOfFields: uint16!
  maxPageSize: uint32!
  "How far back a query may read, in seconds"
  notOlderThan: uint64!
}

type Settings {
  firewallEventsAdaptive: DatasetSettings!
  firewallEventsAdaptiveGroups: DatasetSettings!
}

"What the rule matched (Cairn: the real API only offers this through encrypted payload logging)"
type MatchedDatum {
  name: string!
  value: string!
  ruleId: string
  message: string
}
${zone.types}
${account.types}
${FILTER_INPUTS.map((name) => filterInput(name, GROUP_FIELDS)).join('\n\n')}
`;

let built: GraphQLSchema | undefined;

export function analyticsSchema(): GraphQLSchema {
  if (!built) {
    built = buildSchema(ANALYTICS_SDL);
    checkScalars(built);
  }
  return built;
}
