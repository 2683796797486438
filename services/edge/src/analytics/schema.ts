import { buildSchema, type GraphQLSchema } from 'graphql';
import { type DatasetField, EVENT_FIELDS, GROUP_FIELDS, OPERATORS } from './fields.ts';

/** The most rows one dataset node may ask for (the real API's limit argument is bounded the same way). */
export const MAX_LIMIT = 10_000;

const listType = (t: string) => (t === 'Int' ? '[Int!]' : `[${t}!]`);

function filterInput(name: string, fields: readonly DatasetField[]): string {
  const lines: string[] = [];
  for (const f of fields) {
    for (const op of OPERATORS) {
      if ((op === '_like' || op === '_notlike') && f.type !== 'String') continue;
      lines.push(`  ${f.name}${op}: ${op === '_in' || op === '_notin' ? listType(f.type) : f.type}`);
    }
  }
  return `input ${name} {\n  AND: [${name}!]\n  OR: [${name}!]\n${lines.join('\n')}\n}`;
}

function orderEnum(name: string, fields: readonly DatasetField[], withCount: boolean): string {
  const values = fields.flatMap((f) => [`${f.name}_ASC`, `${f.name}_DESC`]);
  if (withCount) values.push('count_ASC', 'count_DESC');
  return `enum ${name} {\n  ${values.join('\n  ')}\n}`;
}

const objectType = (name: string, fields: readonly DatasetField[], extra = '') =>
  `type ${name} {\n${fields.map((f) => `  "${f.description}"\n  ${f.name}: ${f.type}`).join('\n')}\n${extra}}`;

/**
 * The subset of the GraphQL Analytics API that Security Events reads: viewer → zones(filter: {zoneTag})
 * → firewallEventsAdaptive and firewallEventsAdaptiveGroups, with the real field, filter and orderBy names.
 */
export const ANALYTICS_SDL = `
"An RFC 3339 time, e.g. 2026-01-01T00:00:00Z"
scalar Time

type Query {
  viewer: viewer!
}

type viewer {
  zones(filter: ZoneFilter_InputObject, limit: Int): [zone!]!
}

input ZoneFilter_InputObject {
  zoneTag: String
  zoneTag_in: [String!]
}

type zone {
  zoneTag: String!
  firewallEventsAdaptive(
    filter: ZoneFirewallEventsAdaptiveFilter_InputObject
    limit: Int!
    orderBy: [ZoneFirewallEventsAdaptiveOrderBy!]
  ): [ZoneFirewallEventsAdaptive!]!
  firewallEventsAdaptiveGroups(
    filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject
    limit: Int!
    orderBy: [ZoneFirewallEventsAdaptiveGroupsOrderBy!]
  ): [ZoneFirewallEventsAdaptiveGroups!]!
}

"What the rule matched (Cairn: the real API only offers this through encrypted payload logging)"
type MatchedDatum {
  name: String!
  value: String!
  ruleId: String
  message: String
}

${objectType('ZoneFirewallEventsAdaptive', EVENT_FIELDS, '  "Cairn: the matched data of the rule"\n  matchedData: [MatchedDatum!]!\n')}

${objectType('ZoneFirewallEventsAdaptiveGroupsDimensions', GROUP_FIELDS)}

type ZoneFirewallEventsAdaptiveGroups {
  count: Int!
  dimensions: ZoneFirewallEventsAdaptiveGroupsDimensions
}

${filterInput('ZoneFirewallEventsAdaptiveFilter_InputObject', EVENT_FIELDS)}

${filterInput('ZoneFirewallEventsAdaptiveGroupsFilter_InputObject', GROUP_FIELDS)}

${orderEnum('ZoneFirewallEventsAdaptiveOrderBy', EVENT_FIELDS, false)}

${orderEnum('ZoneFirewallEventsAdaptiveGroupsOrderBy', GROUP_FIELDS, true)}
`;

let built: GraphQLSchema | undefined;

export function analyticsSchema(): GraphQLSchema {
  built ??= buildSchema(ANALYTICS_SDL);
  return built;
}
