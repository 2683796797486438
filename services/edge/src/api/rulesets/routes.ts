import type { EdgeDeps } from '../../deps.ts';
import { NO_CONTENT, Reply } from '../envelope.ts';
import { authenticationError, invalidParameter, rulesetNotFound } from '../errors.ts';
import { HEX_ID } from '../ids.ts';
import { qBool, qInt, qString } from '../query.ts';
import { type EdgeRoute, type PathParam, route } from '../route.ts';
import { arr, obj, oneOf, optional, str } from '../schema.ts';
import { managedRulesetJson, rulesetSchema } from './model.ts';
import { ruleInput, rulePatch, ruleWithPosition } from './rule-input.ts';
import {
  addRule,
  createRuleset,
  deleteRule,
  deleteRuleset,
  deleteRulesetVersion,
  entrypointRuleset,
  getEntrypoint,
  getRuleset,
  getRulesetVersion,
  listRulesets,
  listRulesetVersions,
  patchRule,
  putEntrypoint,
  updateRuleset,
} from './service.ts';
import { wafWarnings } from './waf-warnings.ts';

const hexParam = (what: string): PathParam => ({
  schema: { pattern: HEX_ID.source, description: `The ${what} id (32 lowercase hex characters)` },
  message: `'{value}' is not a valid ${what} id: ids are 32 lowercase hex characters`,
});
const versionParam: PathParam = {
  schema: { pattern: '^[1-9][0-9]{0,8}$', description: 'A version number (1, 2, …)' },
  message: `'{value}' is not a valid ruleset version: versions are positive integers`,
};

const rulesetId = { ruleset_id: hexParam('ruleset') };
const read = { zone: 'rulesets', level: 'read' } as const;
const edit = { zone: 'rulesets', level: 'edit' } as const;
const dryRun = { dry_run: qBool('Validate only: nothing is saved and result is null') };
const full = rulesetSchema(true);
const fullOrNull = { anyOf: [full, { type: 'null' }] };
const headers = { type: 'array', items: rulesetSchema(false) };

const rules = arr(ruleInput, { max: 1000, description: 'The rules, in order' });
const name = str({ min: 1, max: 255 });
const description = optional(str({ max: 500 }));

const CreateRuleset = obj({
  name,
  kind: oneOf(['managed', 'custom', 'root', 'zone']),
  phase: str({ min: 1, max: 64 }),
  description,
  rules: optional(rules),
});
const UpdateRuleset = obj({
  rules,
  description,
  kind: optional(oneOf(['managed', 'custom', 'root', 'zone'])),
  phase: optional(str({ min: 1, max: 64 })),
  name: optional(name),
});
const UpdateEntrypoint = obj({ rules, name: optional(name), description });

export const rulesetRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets',
    summary: "List the zone's rulesets and the managed rulesets available to it (without rules)",
    access: read,
    query: {
      cursor: qString('Opaque cursor from result_info.cursor'),
      per_page: qInt(1, 500, undefined, 'Rulesets per page'),
    },
    result: headers,
    list: true,
    async handle({ deps, zone, query }) {
      const all = await listRulesets(deps, zone);
      const start = query.cursor ? Number.parseInt(Buffer.from(query.cursor, 'base64url').toString(), 10) : 0;
      if (!Number.isInteger(start) || start < 0)
        throw invalidParameter('cursor', `'${query.cursor}' is not a cursor given by this API`);
      const items = all.slice(start, query.per_page === undefined ? undefined : start + query.per_page);
      const next = start + items.length;
      return new Reply(items, {
        count: items.length,
        ...(next < all.length ? { cursor: Buffer.from(String(next)).toString('base64url') } : {}),
      });
    },
  }),
  route({
    method: 'POST',
    url: '/zones/:zone_id/rulesets',
    summary: 'Create a zone ruleset (the entry point of a phase)',
    access: edit,
    query: dryRun,
    body: CreateRuleset,
    result: fullOrNull,
    handle: ({ deps, auth, zone, body, query }) =>
      createRuleset(deps, zone, body, { dryRun: query.dry_run === true, actor: auth.actor }),
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/:ruleset_id',
    summary: 'A ruleset with its rules (latest version)',
    access: read,
    params: rulesetId,
    result: full,
    handle: ({ deps, zone, params }) => getRuleset(deps, zone, params.ruleset_id!),
  }),
  route({
    method: 'PUT',
    url: '/zones/:zone_id/rulesets/:ruleset_id',
    summary: 'Replace the rules of a ruleset (a new version)',
    access: edit,
    params: rulesetId,
    query: dryRun,
    body: UpdateRuleset,
    result: fullOrNull,
    handle: ({ deps, auth, zone, params, body, query }) =>
      updateRuleset(deps, zone, params.ruleset_id!, body, {
        dryRun: query.dry_run === true,
        actor: auth.actor,
      }),
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/rulesets/:ruleset_id',
    summary: 'Delete a zone ruleset and all its versions',
    access: edit,
    params: rulesetId,
    query: dryRun,
    noContent: true,
    async handle({ deps, auth, zone, params, query }) {
      if (query.dry_run !== true) await deleteRuleset(deps, zone, params.ruleset_id!, { actor: auth.actor });
      return NO_CONTENT;
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/:ruleset_id/versions',
    summary: 'The versions of a ruleset (without rules)',
    access: read,
    params: rulesetId,
    result: headers,
    list: true,
    async handle({ deps, zone, params }) {
      const versions = await listRulesetVersions(deps, zone, params.ruleset_id!);
      return new Reply(versions, { count: versions.length });
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/:ruleset_id/versions/:ruleset_version',
    summary: 'One version of a ruleset, with its rules',
    access: read,
    params: { ...rulesetId, ruleset_version: versionParam },
    result: full,
    handle: ({ deps, zone, params }) =>
      getRulesetVersion(deps, zone, params.ruleset_id!, Number(params.ruleset_version)),
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/rulesets/:ruleset_id/versions/:ruleset_version',
    summary: 'Delete an old version of a ruleset (not the latest)',
    access: edit,
    params: { ...rulesetId, ruleset_version: versionParam },
    query: dryRun,
    noContent: true,
    async handle({ deps, zone, params, query }) {
      if (query.dry_run !== true)
        await deleteRulesetVersion(deps, zone, params.ruleset_id!, Number(params.ruleset_version));
      return NO_CONTENT;
    },
  }),
  route({
    method: 'POST',
    url: '/zones/:zone_id/rulesets/:ruleset_id/rules',
    summary: 'Add a rule (at the end, or at `position`); returns the whole ruleset',
    access: edit,
    params: rulesetId,
    query: dryRun,
    body: ruleWithPosition,
    result: fullOrNull,
    handle: ({ deps, auth, zone, params, body, query }) =>
      addRule(deps, zone, params.ruleset_id!, body, { dryRun: query.dry_run === true, actor: auth.actor }),
  }),
  route({
    method: 'PATCH',
    url: '/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id',
    summary: 'Change a rule and/or move it; returns the whole ruleset',
    access: edit,
    params: { ...rulesetId, rule_id: hexParam('rule') },
    query: dryRun,
    body: rulePatch,
    result: fullOrNull,
    handle: ({ deps, auth, zone, params, body, query }) =>
      patchRule(deps, zone, params.ruleset_id!, params.rule_id!, body, {
        dryRun: query.dry_run === true,
        actor: auth.actor,
      }),
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id',
    summary: 'Delete a rule; returns the whole ruleset',
    access: edit,
    params: { ...rulesetId, rule_id: hexParam('rule') },
    query: dryRun,
    result: fullOrNull,
    handle: ({ deps, auth, zone, params, query }) =>
      deleteRule(deps, zone, params.ruleset_id!, params.rule_id!, {
        dryRun: query.dry_run === true,
        actor: auth.actor,
      }),
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint',
    summary: "The zone's entry point ruleset of a phase (404/10003 when there is none)",
    access: read,
    result: full,
    async handle({ deps, zone, params }) {
      const result = await getEntrypoint(deps, zone, params.ruleset_phase!);
      const warnings = 'rules' in result ? wafWarnings(result.rules ?? [], deps.catalogue) : [];
      return warnings.length > 0 ? new Reply(result, undefined, warnings) : result;
    },
  }),
  route({
    method: 'PUT',
    url: '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint',
    summary: "Create or replace the zone's entry point ruleset of a phase",
    access: edit,
    query: dryRun,
    body: UpdateEntrypoint,
    result: fullOrNull,
    handle: ({ deps, auth, zone, params, body, query }) =>
      putEntrypoint(deps, zone, params.ruleset_phase!, body, {
        dryRun: query.dry_run === true,
        actor: auth.actor,
      }),
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint/versions',
    summary: 'The versions of an entry point ruleset',
    access: read,
    result: headers,
    list: true,
    async handle({ deps, zone, params }) {
      const rs = await entrypointRuleset(deps, zone, params.ruleset_phase!);
      const versions = await listRulesetVersions(deps, zone, rs.id);
      return new Reply(versions, { count: versions.length });
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint/versions/:ruleset_version',
    summary: 'One version of an entry point ruleset',
    access: read,
    params: { ruleset_version: versionParam },
    result: full,
    async handle({ deps, zone, params }) {
      const rs = await entrypointRuleset(deps, zone, params.ruleset_phase!);
      return getRulesetVersion(deps, zone, rs.id, Number(params.ruleset_version));
    },
  }),
  ...accountRulesetRoutes(),
];

/** Account level: the managed rulesets, read-only. */
function accountRulesetRoutes(): EdgeRoute[] {
  const account = (value: string, auth: { accountId: string }) => {
    if (value !== auth.accountId)
      throw authenticationError(403, `this API token belongs to another account than ${value}`);
  };
  const managed = (deps: EdgeDeps, id: string) => {
    const rs = deps.catalogue.find(id);
    if (!rs)
      throw authenticationError(
        403,
        `ruleset ${id} is not available to this account (the account has the managed rulesets only)`,
      );
    return rs;
  };
  return [
    route({
      method: 'GET',
      url: '/accounts/:account_id/rulesets',
      summary: 'The managed rulesets of the account (without rules)',
      access: 'account',
      result: headers,
      list: true,
      async handle({ deps, auth, params }) {
        account(params.account_id!, auth);
        const list = deps.catalogue.rulesets.map((rs) => managedRulesetJson(rs));
        return new Reply(list, { count: list.length });
      },
    }),
    route({
      method: 'GET',
      url: '/accounts/:account_id/rulesets/:ruleset_id',
      summary: 'A managed ruleset with its rules',
      access: 'account',
      params: rulesetId,
      result: full,
      async handle({ deps, auth, params }) {
        account(params.account_id!, auth);
        const rs = managed(deps, params.ruleset_id!);
        return managedRulesetJson(rs, rs.rules());
      },
    }),
    route({
      method: 'GET',
      url: '/accounts/:account_id/rulesets/:ruleset_id/versions',
      summary: 'The versions of a managed ruleset',
      access: 'account',
      params: rulesetId,
      result: headers,
      list: true,
      async handle({ deps, auth, params }) {
        account(params.account_id!, auth);
        const rs = managed(deps, params.ruleset_id!);
        return new Reply([managedRulesetJson(rs)], { count: 1 });
      },
    }),
    route({
      method: 'GET',
      url: '/accounts/:account_id/rulesets/:ruleset_id/versions/:ruleset_version',
      summary: 'One version of a managed ruleset',
      access: 'account',
      params: { ...rulesetId, ruleset_version: versionParam },
      result: full,
      async handle({ deps, auth, params }) {
        account(params.account_id!, auth);
        const rs = managed(deps, params.ruleset_id!);
        if (params.ruleset_version !== rs.version) {
          throw rulesetNotFound(
            `could not find version ${params.ruleset_version} of ruleset ${rs.id}; ${rs.name} has version ${rs.version}`,
          );
        }
        return managedRulesetJson(rs, rs.rules());
      },
    }),
    route({
      method: 'GET',
      url: '/accounts/:account_id/rulesets/:ruleset_id/versions/:ruleset_version/by_tag/:rule_tag',
      summary: 'The rules of a managed ruleset version that carry a tag (category)',
      access: 'account',
      params: { ...rulesetId, ruleset_version: versionParam },
      result: full,
      async handle({ deps, auth, params }) {
        account(params.account_id!, auth);
        const rs = managed(deps, params.ruleset_id!);
        return managedRulesetJson(
          rs,
          rs.rules().filter((r) => r.categories.includes(params.rule_tag!)),
        );
      },
    }),
  ];
}
