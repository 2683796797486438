import type { Queryable } from '@cairn/kit';
import type { UrlNormalizationType } from '@cairn/rules';
import { type EdgeRoute, route } from '../route.ts';
import { obj, oneOf, optional } from '../schema.ts';

/**
 * The zone's URL normalisation (`/zones/{id}/url_normalization`, as the real API): `type` rfc3986 or
 * cloudflare; `scope` incoming (rules see the normalised URL, the origin gets it as received), both (the
 * origin gets the normalised URL too) or none (off). Default: cloudflare, incoming. Kept in
 * `edge_zone_settings` under `url_normalization`, so a change NOTIFYs the data plane like any setting.
 */
export type UrlNormalizationScope = 'incoming' | 'both' | 'none';

export interface UrlNormalization {
  type: UrlNormalizationType;
  scope: UrlNormalizationScope;
}

export const URL_NORMALIZATION_DEFAULT: Readonly<UrlNormalization> = Object.freeze({
  type: 'cloudflare',
  scope: 'incoming',
});

const SETTING_ID = 'url_normalization';
const TYPES = ['cloudflare', 'rfc3986'] as const;
const SCOPES = ['incoming', 'both', 'none'] as const;

export async function readUrlNormalization(db: Queryable, zoneId: string): Promise<UrlNormalization> {
  const { rows } = await db.query<{ value: Partial<UrlNormalization> }>(
    'SELECT value FROM edge_zone_settings WHERE zone_id = $1 AND setting_id = $2',
    [zoneId, SETTING_ID],
  );
  const stored = rows[0]?.value ?? {};
  return {
    type: TYPES.find((t) => t === stored.type) ?? URL_NORMALIZATION_DEFAULT.type,
    scope: SCOPES.find((s) => s === stored.scope) ?? URL_NORMALIZATION_DEFAULT.scope,
  };
}

async function writeUrlNormalization(
  db: Queryable,
  zoneId: string,
  value: UrlNormalization | undefined,
  at: Date,
): Promise<void> {
  if (value === undefined) {
    await db.query('DELETE FROM edge_zone_settings WHERE zone_id = $1 AND setting_id = $2', [
      zoneId,
      SETTING_ID,
    ]);
    return;
  }
  await db.query(
    `INSERT INTO edge_zone_settings (zone_id, setting_id, value, modified_on) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (zone_id, setting_id) DO UPDATE SET value = EXCLUDED.value, modified_on = EXCLUDED.modified_on`,
    [zoneId, SETTING_ID, JSON.stringify(value), at],
  );
}

const schema = {
  type: 'object',
  properties: { type: { type: 'string', enum: [...TYPES] }, scope: { type: 'string', enum: [...SCOPES] } },
  required: ['type', 'scope'],
  additionalProperties: false,
};

const Body = obj({
  type: optional(oneOf(TYPES, 'rfc3986 or cloudflare (also: \\ to /, successive slashes merged)')),
  scope: optional(oneOf(SCOPES, 'incoming (rules only), both (the origin too) or none (off)')),
});

export const urlNormalizationRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/zones/:zone_id/url_normalization',
    summary: 'The zone’s URL normalisation',
    access: { zone: 'zone_settings', level: 'read' },
    result: schema,
    handle: ({ deps, zone }) => readUrlNormalization(deps.db, zone.id),
  }),
  route({
    method: 'PUT',
    url: '/zones/:zone_id/url_normalization',
    summary: 'Change the zone’s URL normalisation (fields left out keep their value)',
    access: { zone: 'zone_settings', level: 'edit' },
    body: Body,
    result: schema,
    async handle({ deps, zone, body }) {
      const current = await readUrlNormalization(deps.db, zone.id);
      const next: UrlNormalization = { type: body.type ?? current.type, scope: body.scope ?? current.scope };
      await writeUrlNormalization(deps.db, zone.id, next, deps.clock.now());
      return next;
    },
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/url_normalization',
    summary: 'Reset the zone’s URL normalisation to the default (cloudflare, incoming)',
    access: { zone: 'zone_settings', level: 'edit' },
    result: schema,
    async handle({ deps, zone }) {
      await writeUrlNormalization(deps.db, zone.id, undefined, deps.clock.now());
      return { ...URL_NORMALIZATION_DEFAULT };
    },
  }),
];
