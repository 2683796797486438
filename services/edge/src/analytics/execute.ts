import {
  execute,
  type FormattedExecutionResult,
  GraphQLError,
  type GraphQLResolveInfo,
  parse,
  specifiedRules,
  VariablesInAllowedPositionRule,
  validate,
} from 'graphql';
import type { EdgeAuth } from '../api/auth/authenticate.ts';
import { zoneFor } from '../api/auth/authenticate.ts';
import { allows, seesZone } from '../api/auth/permissions.ts';
import { listZones } from '../api/zones/store.ts';
import type { EdgeDeps } from '../deps.ts';
import { adaptiveEvents, adaptiveGroups, type DatasetArgs, selectedGroups } from './datasets.ts';
import { EVENT_FIELDS, GROUP_FIELDS } from './fields.ts';
import { earliestAsked } from './filter-sql.ts';
import { costLimits, MAX_FIELDS } from './limits.ts';
import { analyticsSchema, MAX_LIMIT } from './schema.ts';
import { inlineUndeclaredVariables, variablesInLooseTypes } from './variables.ts';

/** The longest query text accepted, and the most tokens GraphQL's parser reads. */
export const MAX_QUERY_BYTES = 32_768;
const MAX_TOKENS = 5_000;
/** GraphQL's rules (variable types as loose as the real API's), then depth and cost limits. */
const RULES = [
  ...specifiedRules.filter((r) => r !== VariablesInAllowedPositionRule),
  variablesInLooseTypes,
  costLimits,
];

/** The most zones one query reads. */
export const MAX_ZONES = 10;

export interface AnalyticsContext {
  deps: EdgeDeps;
  auth: EdgeAuth;
  retentionDays: number;
}

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | undefined;
  operationName?: string | undefined;
}

const failure = (message: string, code?: string): FormattedExecutionResult => ({
  data: null,
  errors: [{ message, ...(code ? { extensions: { code } } : {}) }],
});

function checkRetention(ctx: AnalyticsContext, dataset: string, filter: DatasetArgs['filter']): void {
  const asked = earliestAsked(filter);
  if (!asked) return;
  const seconds = ctx.retentionDays * 86_400;
  const oldest = ctx.deps.clock.now().getTime() - seconds * 1000;
  if (asked.at.getTime() < oldest) {
    throw new GraphQLError(
      `cannot request data older than ${seconds}s: ${dataset} keeps ${ctx.retentionDays} days, and filter.${asked.key} is ${asked.at.toISOString()}`,
      { extensions: { code: 'bad_request', limit: seconds } },
    );
  }
}

/** The settings node: what each dataset allows (the same for every zone and token here). */
function settings(ctx: AnalyticsContext) {
  const limits = (fields: readonly { name: string }[]) => ({
    enabled: true,
    availableFields: fields.map((f) => f.name),
    maxDuration: ctx.retentionDays * 86_400,
    maxNumberOfFields: MAX_FIELDS,
    maxPageSize: MAX_LIMIT,
    notOlderThan: ctx.retentionDays * 86_400,
  });
  return {
    firewallEventsAdaptive: limits(EVENT_FIELDS),
    firewallEventsAdaptiveGroups: limits(GROUP_FIELDS),
  };
}

/** The datasets of a scope: one zone (viewer.zones) or the readable zones of an account (viewer.accounts). */
function datasetNodes(ctx: AnalyticsContext, zoneIds: readonly string[]) {
  return {
    firewallEventsAdaptive(args: DatasetArgs) {
      checkRetention(ctx, 'firewallEventsAdaptive', args.filter);
      return adaptiveEvents(ctx.deps.db, zoneIds, args);
    },
    firewallEventsAdaptiveGroups(args: DatasetArgs, _ctx: unknown, info: GraphQLResolveInfo) {
      checkRetention(ctx, 'firewallEventsAdaptiveGroups', args.filter);
      return adaptiveGroups(ctx.deps.db, zoneIds, args, selectedGroups(info.fieldNodes, info.fragments));
    },
    settings: () => settings(ctx),
  };
}

/** viewer.accounts(filter: {accountTag}): the token's own account only, over the zones it may read. */
async function accounts(ctx: AnalyticsContext, args: { filter?: { accountTag?: string } }) {
  const tag = args.filter?.accountTag;
  if (!tag) throw new GraphQLError('accounts: filter by accountTag (the account id to read)');
  if (tag !== ctx.auth.accountId) {
    throw new GraphQLError(`account ${tag}: this API token has no access to it`, {
      extensions: { code: 'authz' },
    });
  }
  const readable = (await listZones(ctx.deps.db, tag)).filter(
    (z) =>
      seesZone(ctx.auth.grants, z.id) &&
      (allows(ctx.auth.grants, z.id, 'waf', 'read') || allows(ctx.auth.grants, z.id, 'firewall', 'read')),
  );
  return [
    {
      accountTag: tag,
      ...datasetNodes(
        ctx,
        readable.map((z) => z.id),
      ),
    },
  ];
}

/** Zones the token may read analytics of: zone visible and waf or firewall read granted. */
async function zones(ctx: AnalyticsContext, args: { filter?: { zoneTag?: string; zoneTag_in?: string[] } }) {
  const tags = [...(args.filter?.zoneTag ? [args.filter.zoneTag] : []), ...(args.filter?.zoneTag_in ?? [])];
  if (tags.length === 0)
    throw new GraphQLError('zones: filter by zoneTag or zoneTag_in (the zone ids to read)');
  if (tags.length > MAX_ZONES)
    throw new GraphQLError(`zones: at most ${MAX_ZONES} zones per query, not ${tags.length}`);
  const out = [];
  for (const tag of new Set(tags)) {
    const zone = await zoneFor(ctx.deps, ctx.auth, tag, 'zone', 'read', `zones(zoneTag: ${tag})`).catch(
      (e: Error) => {
        throw new GraphQLError(`zone ${tag}: ${e.message}`, { extensions: { code: 'authz' } });
      },
    );
    if (
      !allows(ctx.auth.grants, zone.id, 'waf', 'read') &&
      !allows(ctx.auth.grants, zone.id, 'firewall', 'read')
    ) {
      throw new GraphQLError(
        `zone ${zone.name}: this API token lacks analytics access (waf:read or firewall:read)`,
        {
          extensions: { code: 'authz' },
        },
      );
    }
    out.push({ zoneTag: zone.id, ...datasetNodes(ctx, [zone.id]) });
  }
  return out;
}

/**
 * Parses, validates (GraphQL's rules plus depth and cost limits) and runs one query. Errors are GraphQL's
 * `{data, errors}`; nothing here throws for bad input.
 */
export async function runAnalyticsQuery(
  ctx: AnalyticsContext,
  request: GraphqlRequest,
): Promise<FormattedExecutionResult> {
  if (Buffer.byteLength(request.query) > MAX_QUERY_BYTES) {
    return failure(`query is too long: more than ${MAX_QUERY_BYTES} bytes`);
  }
  let document: ReturnType<typeof parse>;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS });
  } catch (e) {
    return { data: null, errors: [(e as GraphQLError).toJSON()] };
  }
  const schema = analyticsSchema();
  document = inlineUndeclaredVariables(schema, document, request.variables);
  const invalid = validate(schema, document, RULES, { maxErrors: 20 });
  if (invalid.length > 0) return { errors: invalid.map((e) => e.toJSON()) };
  const result = await execute({
    schema,
    document,
    rootValue: {
      viewer: () => ({
        zones: (args: Parameters<typeof zones>[1]) => zones(ctx, args),
        accounts: (args: Parameters<typeof accounts>[1]) => accounts(ctx, args),
      }),
    },
    ...(request.variables ? { variableValues: request.variables } : {}),
    ...(request.operationName ? { operationName: request.operationName } : {}),
  });
  return {
    data: result.data ?? null,
    ...(result.errors ? { errors: result.errors.map((e) => shown(ctx, e)) } : {}),
  };
}

/** A resolver's own errors are shown; anything else (a database failure) is logged and said generically. */
function shown(ctx: AnalyticsContext, e: GraphQLError) {
  const cause = e.originalError;
  if (!cause || cause instanceof GraphQLError) return e.toJSON();
  ctx.deps.log.error({ err: cause, path: e.path }, 'analytics query failed');
  return {
    message: 'internal error; the query could not be answered',
    path: e.path,
    extensions: { code: 'internal' },
  };
}
