import { allows, seesZone } from '../auth/permissions.ts';
import { Reply } from '../envelope.ts';
import { authenticationError, invalidValue } from '../errors.ts';
import { settingNotices } from '../migration/notices.ts';
import { pageParams, paginate, qEnum, qString } from '../query.ts';
import { type EdgeRoute, type PathParam, route } from '../route.ts';
import { bool, hexId, obj, oneOf, optional, str } from '../schema.ts';
import { findPlan, PLAN_NAMES } from './plans.ts';
import { changeZone, createZone, deleteZone, zoneJson, zoneSchema } from './service.ts';
import { findSetting, readSettings, SETTINGS, settingSchema, writeSetting } from './settings.ts';
import { listZones } from './store.ts';
import { urlNormalizationRoutes } from './url-normalization.ts';

const planRef = obj(
  { id: str({ description: `A plan id or legacy id: ${PLAN_NAMES.join(', ')}` }) },
  { description: 'Cairn extension: the plan of the zone (default free)' },
);

function planOf(value: { id: string } | undefined, pointer: string) {
  if (!value) return undefined;
  const plan = findPlan(value.id);
  if (!plan) throw invalidValue(pointer, value.id, `it must be a plan id or one of ${PLAN_NAMES.join(', ')}`);
  return plan;
}

const CreateZone = obj({
  name: str({ min: 1, max: 253, description: 'The domain name' }),
  account: obj({ id: hexId('The account that owns the zone') }),
  type: optional(oneOf(['full', 'partial', 'secondary'])),
  jump_start: optional(bool()),
  plan: optional(planRef),
  origin: optional(
    str({ max: 2048, description: 'Cairn extension: the origin URL the edge proxy sends traffic to' }),
  ),
});

const EditZone = obj({
  paused: optional(bool()),
  type: optional(oneOf(['full', 'partial', 'secondary'])),
  vanity_name_servers: optional(obj({})),
  plan: optional(planRef),
  origin: optional(str({ max: 2048, description: 'Cairn extension: the origin URL ("" clears it)' })),
});

const zoneId = { zone: 'zone', level: 'read' } as const;
const settingId: PathParam = {
  schema: { enum: SETTINGS.map((s) => s.id), description: 'The setting' },
  notFound: `Cairn keeps the zone settings ${SETTINGS.map((s) => s.id).join(', ')}, not "{value}"`,
};

export const zoneRoutes: EdgeRoute[] = [
  route({
    method: 'POST',
    url: '/zones',
    summary: 'Create a zone',
    access: 'token',
    body: CreateZone,
    result: zoneSchema,
    async handle({ deps, auth, body }) {
      if (body.account.id !== auth.accountId || !allows(auth.grants, '*', 'zone', 'edit')) {
        throw authenticationError(
          403,
          `creating zones in account ${body.account.id} needs a token with zone:edit on every zone (*) of that account`,
        );
      }
      const zone = await createZone(deps, {
        accountId: auth.accountId,
        name: body.name,
        plan: planOf(body.plan, '/plan/id') ?? 'free',
        ...(body.origin === undefined ? {} : { origin: body.origin }),
      });
      return zoneJson(zone);
    },
  }),
  route({
    method: 'GET',
    url: '/zones',
    summary: 'List the zones the token can see',
    access: 'token',
    query: {
      name: qString('Only the zone with this name'),
      status: qString('Only zones with this status: active, or pending (waiting for ownership verification)'),
      'account.id': qString('Only zones of this account'),
      'account.name': qString('Only zones of this account'),
      order: qEnum(['name', 'status', 'account.id', 'account.name'], 'Sort field'),
      direction: qEnum(['asc', 'desc'], 'Sort direction'),
      match: qEnum(['any', 'all'], 'Whether all or any of the filters must match'),
      ...pageParams(20, 5, 50),
    },
    result: { type: 'array', items: zoneSchema },
    list: true,
    async handle({ deps, auth, query }) {
      let zones = (await listZones(deps.db, auth.accountId)).filter((z) => seesZone(auth.grants, z.id));
      const filters = [
        query.name === undefined
          ? undefined
          : (z: (typeof zones)[number]) => z.name === query.name!.toLowerCase(),
        query.status === undefined ? undefined : (z: (typeof zones)[number]) => z.status === query.status,
        query['account.id'] === undefined
          ? undefined
          : (z: (typeof zones)[number]) => z.accountId === query['account.id'],
        query['account.name'] === undefined
          ? undefined
          : (z: (typeof zones)[number]) => z.accountName === query['account.name'],
      ].filter((f) => f !== undefined);
      if (filters.length > 0) {
        zones = zones.filter((z) =>
          query.match === 'any' ? filters.some((f) => f(z)) : filters.every((f) => f(z)),
        );
      }
      if (query.direction === 'desc') zones.reverse();
      const page = paginate(zones.map(zoneJson), query.page, query.per_page);
      return new Reply(page.items, page.info);
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id',
    summary: 'Zone details',
    access: zoneId,
    result: zoneSchema,
    handle: async ({ zone }) => zoneJson(zone),
  }),
  route({
    method: 'PATCH',
    url: '/zones/:zone_id',
    summary: 'Edit a zone (paused; plan as a Cairn extension)',
    access: { zone: 'zone', level: 'edit' },
    body: EditZone,
    result: zoneSchema,
    async handle({ deps, zone, body }) {
      const plan = planOf(body.plan, '/plan/id');
      const changed = await changeZone(deps, zone, {
        ...(plan ? { plan } : {}),
        ...(body.paused === undefined ? {} : { paused: body.paused }),
        ...(body.origin === undefined ? {} : { origin: body.origin }),
      });
      return new Reply(zoneJson(changed.zone), undefined, changed.messages);
    },
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id',
    summary: 'Delete a zone and everything configured in it',
    access: { zone: 'zone', level: 'edit' },
    result: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    async handle({ deps, zone }) {
      await deleteZone(deps, zone);
      return { id: zone.id };
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/settings',
    summary: 'All zone settings Cairn keeps',
    access: { zone: 'zone_settings', level: 'read' },
    result: { type: 'array', items: settingSchema },
    handle: async ({ deps, zone }) => readSettings(deps.db, zone.id, zone.plan),
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/settings/:setting_id',
    summary: 'One zone setting (waf, security_level)',
    access: { zone: 'zone_settings', level: 'read' },
    params: { setting_id: settingId },
    result: settingSchema,
    async handle({ deps, zone, params }) {
      const all = await readSettings(deps.db, zone.id, zone.plan);
      return all.find((s) => s.id === params.setting_id);
    },
  }),
  route({
    method: 'PATCH',
    url: '/zones/:zone_id/settings/:setting_id',
    summary: 'Change one zone setting',
    access: { zone: 'zone_settings', level: 'edit' },
    params: { setting_id: settingId },
    body: obj({ value: str({ description: 'The new value' }), enabled: optional(bool()) }),
    result: settingSchema,
    async handle({ deps, zone, params, body }) {
      const def = findSetting(params.setting_id!)!;
      if (!def.values.includes(body.value)) {
        throw invalidValue(
          '/value',
          body.value,
          `the ${def.id} setting must be one of ${def.values.join(', ')}`,
        );
      }
      await writeSetting(deps.db, zone.id, zone.plan, def, body.value, deps.clock.now());
      const all = await readSettings(deps.db, zone.id, zone.plan);
      return new Reply(
        all.find((s) => s.id === def.id),
        undefined,
        settingNotices(zone, def.id),
      );
    },
  }),
  ...urlNormalizationRoutes,
];
