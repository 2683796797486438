import { Reply } from '../envelope.ts';
import { invalidValue, noSuchObject } from '../errors.ts';
import { pageParams, paginate, qEnum, qString } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import { obj, oneOf, optional } from '../schema.ts';
import type { Zone } from '../zones/store.ts';
import { PACKAGES, packageRules } from './catalogue.ts';
import {
  createOverride,
  deleteOverride,
  listZoneOverrides,
  overrideCreate,
  overrideJson,
  overrideOf,
  overrideUpdate,
  updateOverride,
} from './overrides.ts';
import { groupSchema, overrideSchema, packageSchema, ruleSchema } from './schemas.ts';
import {
  assertLegacyWaf,
  groupViews,
  onlyAnomalyPackages,
  packageOf,
  packageView,
  ruleViews,
} from './service.ts';
import { readPackageSettings, writeMode, writePackageSettings } from './store.ts';

const read = { zone: 'waf', level: 'read' } as const;
const edit = { zone: 'waf', level: 'edit' } as const;
const BASE = '/zones/:zone_id/firewall/waf';
const paging = pageParams(50, 5, 100);
const listQuery = {
  order: qString('Sort field'),
  direction: qEnum(['asc', 'desc'], 'Sort direction'),
  match: qEnum(['any', 'all'], 'Whether all or any filter must match'),
  ...paging,
};

function page<T>(items: T[], query: { page: number; per_page: number; direction?: string | undefined }) {
  const ordered = query.direction === 'desc' ? [...items].reverse() : items;
  const p = paginate(ordered, query.page, query.per_page);
  return new Reply(p.items, p.info);
}

function gated(zone: Zone) {
  assertLegacyWaf(zone);
}

export const wafLegacyRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: `${BASE}/packages`,
    summary: 'WAF packages (previous version): the CloudFlare and the OWASP package',
    access: read,
    query: { name: qString('Only packages with this name'), ...listQuery },
    result: { type: 'array', items: packageSchema },
    list: true,
    async handle({ deps, zone, query }) {
      gated(zone);
      const all = await Promise.all(PACKAGES.map((p) => packageView(deps.db, zone, p)));
      return page(
        all.filter((p) => query.name === undefined || p.name === query.name),
        query,
      );
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/packages/:package_id`,
    summary: 'A WAF package',
    access: read,
    result: packageSchema,
    async handle({ deps, zone, params, path }) {
      gated(zone);
      return packageView(deps.db, zone, packageOf(params.package_id!, path));
    },
  }),
  route({
    method: 'PATCH',
    url: `${BASE}/packages/:package_id`,
    summary: 'Change the sensitivity and action of the anomaly (OWASP) package',
    access: edit,
    body: obj({
      sensitivity: optional(oneOf(['high', 'medium', 'low', 'off'])),
      action_mode: optional(oneOf(['simulate', 'block', 'challenge'])),
    }),
    result: packageSchema,
    async handle({ deps, zone, params, path, body }) {
      gated(zone);
      const pkg = packageOf(params.package_id!, path);
      if (pkg.detectionMode !== 'anomaly') throw onlyAnomalyPackages();
      const current = await readPackageSettings(deps.db, zone.id, pkg.id);
      await writePackageSettings(deps.db, zone.id, pkg.id, {
        sensitivity: body.sensitivity ?? current.sensitivity,
        actionMode: body.action_mode ?? current.actionMode,
      });
      return packageView(deps.db, zone, pkg);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/packages/:package_id/groups`,
    summary: 'The rule groups of a WAF package',
    access: read,
    query: {
      mode: qEnum(['on', 'off'], 'Only groups in this mode'),
      name: qString('Only the group with this name'),
      ...listQuery,
    },
    result: { type: 'array', items: groupSchema },
    list: true,
    async handle({ deps, zone, params, path, query }) {
      gated(zone);
      const groups = await groupViews(deps.db, deps.catalogue, zone, packageOf(params.package_id!, path));
      const filters = [
        query.mode === undefined ? undefined : (g: (typeof groups)[number]) => g.mode === query.mode,
        query.name === undefined ? undefined : (g: (typeof groups)[number]) => g.name === query.name,
      ].filter((f) => f !== undefined);
      const kept = groups.filter((g) =>
        query.match === 'any'
          ? filters.length === 0 || filters.some((f) => f(g))
          : filters.every((f) => f(g)),
      );
      return page(kept, query);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/packages/:package_id/groups/:group_id`,
    summary: 'A rule group',
    access: read,
    result: groupSchema,
    async handle({ deps, zone, params, path }) {
      gated(zone);
      const groups = await groupViews(deps.db, deps.catalogue, zone, packageOf(params.package_id!, path));
      const group = groups.find((g) => g.id === params.group_id);
      if (!group) throw noSuchObject(path, `No group ${params.group_id} in this WAF package`);
      return group;
    },
  }),
  route({
    method: 'PATCH',
    url: `${BASE}/packages/:package_id/groups/:group_id`,
    summary: 'Turn a rule group on or off',
    access: edit,
    body: obj({ mode: oneOf(['on', 'off']) }),
    result: groupSchema,
    async handle({ deps, zone, params, path, body }) {
      gated(zone);
      const pkg = packageOf(params.package_id!, path);
      const before = await groupViews(deps.db, deps.catalogue, zone, pkg);
      if (!before.some((g) => g.id === params.group_id))
        throw noSuchObject(path, `No group ${params.group_id} in this WAF package`);
      await writeMode(
        deps.db,
        'group',
        zone.id,
        pkg.id,
        params.group_id!,
        body.mode === 'on' ? undefined : body.mode,
      );
      const after = await groupViews(deps.db, deps.catalogue, zone, pkg);
      return after.find((g) => g.id === params.group_id);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/packages/:package_id/rules`,
    summary: 'The rules of a WAF package',
    access: read,
    query: {
      mode: qString('Only rules in this mode'),
      group_id: qString('Only rules of this group'),
      description: qString('Only rules whose description contains this text'),
      priority: qString('Only the rule with this priority'),
      ...listQuery,
    },
    result: { type: 'array', items: ruleSchema },
    list: true,
    async handle({ deps, zone, params, path, query }) {
      gated(zone);
      const rules = await ruleViews(deps.db, deps.catalogue, zone, packageOf(params.package_id!, path));
      type R = (typeof rules)[number];
      const modeAliases: Record<string, string> = {
        DIS: 'disable',
        CHL: 'challenge',
        BLK: 'block',
        SIM: 'simulate',
      };
      const filters = [
        query.mode === undefined ? undefined : (r: R) => r.mode === (modeAliases[query.mode!] ?? query.mode),
        query.group_id === undefined ? undefined : (r: R) => r.group.id === query.group_id,
        query.description === undefined
          ? undefined
          : (r: R) => r.description.toLowerCase().includes(query.description!.toLowerCase()),
        query.priority === undefined ? undefined : (r: R) => r.priority === query.priority,
      ].filter((f) => f !== undefined);
      const kept = rules.filter((r) =>
        query.match === 'any'
          ? filters.length === 0 || filters.some((f) => f(r))
          : filters.every((f) => f(r)),
      );
      return page(kept, query);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/packages/:package_id/rules/:rule_id`,
    summary: 'A WAF rule',
    access: read,
    result: ruleSchema,
    async handle({ deps, zone, params, path }) {
      gated(zone);
      const rules = await ruleViews(deps.db, deps.catalogue, zone, packageOf(params.package_id!, path));
      const rule = rules.find((r) => r.id === params.rule_id);
      if (!rule) throw noSuchObject(path, `No rule ${params.rule_id} in this WAF package`);
      return rule;
    },
  }),
  route({
    method: 'PATCH',
    url: `${BASE}/packages/:package_id/rules/:rule_id`,
    summary: "Change a WAF rule's mode (one of its allowed_modes)",
    access: edit,
    body: obj({ mode: oneOf(['default', 'disable', 'simulate', 'block', 'challenge', 'on', 'off']) }),
    result: ruleSchema,
    async handle({ deps, zone, params, path, body }) {
      gated(zone);
      const pkg = packageOf(params.package_id!, path);
      const rule = (await ruleViews(deps.db, deps.catalogue, zone, pkg)).find((r) => r.id === params.rule_id);
      if (!rule) throw noSuchObject(path, `No rule ${params.rule_id} in this WAF package`);
      if (!(rule.allowed_modes as string[]).includes(body.mode)) {
        throw invalidValue(
          '/mode',
          body.mode,
          `rule ${rule.id} allows the modes ${rule.allowed_modes.join(', ')}`,
        );
      }
      const catalogueDefault =
        pkg.detectionMode === 'anomaly'
          ? packageRules(deps.catalogue, pkg.id).find((r) => r.id === rule.id)?.defaultMode
          : 'default';
      await writeMode(
        deps.db,
        'rule',
        zone.id,
        pkg.id,
        rule.id,
        body.mode === catalogueDefault ? undefined : body.mode,
      );
      return (await ruleViews(deps.db, deps.catalogue, zone, pkg)).find((r) => r.id === rule.id);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/overrides`,
    summary: 'URI-based WAF overrides',
    access: read,
    query: paging,
    result: { type: 'array', items: overrideSchema },
    list: true,
    async handle({ deps, zone, query }) {
      gated(zone);
      const all = (await listZoneOverrides(deps, zone)).map(overrideJson);
      return page(all, query);
    },
  }),
  route({
    method: 'POST',
    url: `${BASE}/overrides`,
    summary: 'Create a URI-based WAF override',
    access: edit,
    body: overrideCreate,
    result: overrideSchema,
    async handle({ deps, zone, body }) {
      gated(zone);
      return createOverride(deps, zone, body);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/overrides/:overrides_id`,
    summary: 'A URI-based WAF override',
    access: read,
    result: overrideSchema,
    async handle({ deps, zone, params, path }) {
      gated(zone);
      return overrideJson(await overrideOf(deps, zone, params.overrides_id!, path));
    },
  }),
  route({
    method: 'PUT',
    url: `${BASE}/overrides/:overrides_id`,
    summary: 'Replace a URI-based WAF override',
    access: edit,
    body: overrideUpdate,
    result: overrideSchema,
    async handle({ deps, zone, params, path, body }) {
      gated(zone);
      return updateOverride(deps, zone, params.overrides_id!, body, path);
    },
  }),
  route({
    method: 'DELETE',
    url: `${BASE}/overrides/:overrides_id`,
    summary: 'Delete a URI-based WAF override',
    access: edit,
    result: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    async handle({ deps, zone, params, path }) {
      gated(zone);
      return deleteOverride(deps, zone, params.overrides_id!, path);
    },
  }),
];
