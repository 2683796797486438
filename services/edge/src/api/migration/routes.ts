import { allows } from '../auth/permissions.ts';
import { Reply } from '../envelope.ts';
import { authenticationError, invalidParameter } from '../errors.ts';
import { qBool, qEnum } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import { rulesetSchema } from '../rulesets/model.ts';
import { ruleInput } from '../rulesets/rule-input.ts';
import { putEntrypoint } from '../rulesets/service.ts';
import { wafWarnings } from '../rulesets/waf-warnings.ts';
import { arr, obj, optional, str } from '../schema.ts';
import { MIGRATION_CODES, message } from './errors.ts';
import {
  checkUpgrade,
  MANAGED_PHASE,
  upgradeConfiguration,
  upgradeHistory,
  upgradeStatus,
  upgradeZone,
} from './service.ts';

const read = { zone: 'waf', level: 'read' } as const;
const BASE = '/zones/:zone_id/waf_migration';
const ENTRYPOINT = '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint';
// The real API documents phase_two=1 (the SDK sends the number 1): a flag, not a phase number.
const phaseTwo = {
  phase_two: qBool(
    '1 selects the phase 2 procedure (eligibility: no URI-based WAF overrides); without it, phase 1',
    'Query parameter {name} is a flag, not a phase number: {name}=1 selects the phase 2 procedure, and 0 or leaving it out the phase 1 procedure (true and false work too); not "{text}"',
  ),
};

const STATES = ['default', 'start', 'validation', 'complete'];

const ruleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', const: '' },
    version: { type: 'string', const: '' },
    action: { type: 'string', enum: ['execute', 'skip'] },
    expression: { type: 'string' },
    description: { type: 'string' },
    ref: { type: 'string', const: '' },
    enabled: { type: 'boolean' },
    action_parameters: { type: 'object' },
    logging: {
      type: 'object',
      properties: { enabled: { type: 'boolean' } },
      required: ['enabled'],
      additionalProperties: false,
    },
  },
  required: ['id', 'version', 'action', 'expression', 'description', 'ref', 'enabled', 'action_parameters'],
  additionalProperties: false,
};

const UpdateEntrypoint = obj({
  rules: arr(ruleInput, { max: 1000, description: 'The rules, in order' }),
  name: optional(str({ min: 1, max: 255 })),
  description: optional(str({ max: 500 })),
});
const full = rulesetSchema(true);

/** The Rulesets API route this area takes over: the entry-point PUT gains `waf_migration`. */
export const replacedByMigration = (r: EdgeRoute) => r.method === 'PUT' && r.url === ENTRYPOINT;

export const migrationRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: `${BASE}/check`,
    summary: 'Check WAF update compatibility: can the zone upgrade to the new WAF Managed Rules?',
    description:
      'compatible false: the reasons are in messages (URI-based WAF overrides with their ids; without phase_two=1 also the phase 1 criteria).',
    access: read,
    query: phaseTwo,
    result: {
      type: 'object',
      properties: { compatible: { type: 'boolean' }, migration_state: { type: 'string', enum: STATES } },
      required: ['compatible', 'migration_state'],
      additionalProperties: false,
    },
    handle: ({ deps, zone, query }) => checkUpgrade(deps, zone, query.phase_two === true),
  }),
  route({
    method: 'GET',
    url: `${BASE}/config`,
    summary: "Get new WAF configuration: the zone's previous WAF as the equivalent managed entry point",
    description:
      'PUT it back to …/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1. messages lists what is not migrated (OWASP group and rule overrides).',
    access: read,
    query: phaseTwo,
    result: {
      type: 'object',
      properties: { name: { type: 'string' }, rules: { type: 'array', items: ruleSchema } },
      required: ['name', 'rules'],
      additionalProperties: false,
    },
    handle: ({ deps, zone }) => upgradeConfiguration(deps, zone),
  }),
  route({
    method: 'GET',
    url: `${BASE}/status`,
    summary: 'Get WAF status: previous and new WAF enabled or disabled, and the upgrade state',
    access: read,
    result: {
      type: 'object',
      properties: {
        old_waf_status: { type: 'string', enum: ['enabled', 'disabled'] },
        new_waf_status: { type: 'string', enum: ['enabled', 'disabled'] },
        migration_state: { type: 'string', enum: STATES },
        source: { type: 'string', enum: ['defaults', 'zone'] },
        created: { type: 'string', format: 'date-time' },
        modified_on: { type: 'string', format: 'date-time' },
      },
      required: ['old_waf_status', 'new_waf_status', 'migration_state', 'source', 'created', 'modified_on'],
      additionalProperties: false,
    },
    handle: async ({ zone }) => upgradeStatus(zone),
  }),
  route({
    method: 'GET',
    url: `${BASE}/history`,
    summary: "Cairn extension: every change of the zone's upgrade state, with who and when, oldest first",
    access: read,
    result: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seq: { type: 'integer' },
          from: { type: 'string', enum: STATES },
          to: { type: 'string', enum: STATES },
          cause: { type: 'string', enum: ['pending', 'validation', 'plan', 'system', 'rulesets'] },
          phase_two: { type: 'boolean' },
          actor: {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['api_token', 'user', 'system'] },
              id: { type: ['string', 'null'] },
              name: { type: 'string' },
            },
            required: ['type', 'id', 'name'],
            additionalProperties: false,
          },
          ruleset_id: { type: ['string', 'null'] },
          ruleset_version: { type: ['string', 'null'] },
          at: { type: 'string', format: 'date-time' },
        },
        required: ['seq', 'from', 'to', 'cause', 'phase_two', 'actor', 'ruleset_id', 'ruleset_version', 'at'],
        additionalProperties: false,
      },
    },
    list: true,
    async handle({ deps, zone }) {
      const events = await upgradeHistory(deps, zone);
      return new Reply(events, { count: events.length });
    },
  }),
  route({
    method: 'PUT',
    url: ENTRYPOINT,
    summary:
      "Create or replace the zone's entry point ruleset of a phase (with waf_migration: the WAF upgrade)",
    description:
      'waf_migration=pending|1 saves the configuration, enables the new WAF Managed Rules and disables the previous version, in one transaction; validation|2 (Enterprise) runs both, the new one first. Needs rulesets:edit, and waf:edit with waf_migration.',
    access: { zone: 'rulesets', level: 'edit' },
    query: {
      dry_run: qBool('Validate only: nothing is saved and result is null'),
      waf_migration: qEnum(
        ['pending', '1', 'validation', '2'],
        'The WAF upgrade: pending/1 finishes it, validation/2 (Enterprise) runs both',
        {
          empty:
            'give pending (or 1) to finish the WAF upgrade or validation (or 2) for validation mode, or leave waf_migration out to write the entry point without upgrading',
        },
      ),
      ...phaseTwo,
    },
    body: UpdateEntrypoint,
    result: { anyOf: [full, { type: 'null' }] },
    async handle({ deps, auth, zone, params, body, query }) {
      const phase = params.ruleset_phase!;
      const dryRun = query.dry_run === true;
      if (query.waf_migration === undefined) {
        const result = await putEntrypoint(deps, zone, phase, body, { dryRun, actor: auth.actor });
        const notYet =
          phase === MANAGED_PHASE && zone.wafMigrationState === 'start'
            ? [
                message(
                  MIGRATION_CODES.notInEffectYet,
                  `zone ${zone.name} still uses the previous WAF managed rules: this entry point is saved but runs only after the upgrade (GET /zones/${zone.id}/waf_migration/check?phase_two=1)`,
                ),
              ]
            : [];
        return new Reply(result, undefined, [...notYet, ...wafWarnings(body.rules ?? [], deps.catalogue)]);
      }
      if (phase !== MANAGED_PHASE) {
        throw invalidParameter(
          'waf_migration',
          `waf_migration applies to the ${MANAGED_PHASE} entry point only, not to ${phase}`,
        );
      }
      if (!allows(auth.grants, zone.id, 'waf', 'edit')) {
        throw authenticationError(
          403,
          `the WAF upgrade disables the previous WAF: this API token also needs the permission waf:edit on zone ${zone.name}`,
        );
      }
      return upgradeZone(deps, zone.id, {
        mode: query.waf_migration === 'validation' || query.waf_migration === '2' ? 'validation' : 'pending',
        phaseTwo: query.phase_two === true,
        input: body,
        actor: auth.actor,
        dryRun,
      });
    },
  }),
];
