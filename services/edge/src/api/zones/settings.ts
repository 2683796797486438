import type { Queryable } from '@cairn/kit';
import { notEntitled } from '../errors.ts';
import { atLeast, type PlanName, planLabel } from './plans.ts';

/**
 * Zone settings Cairn keeps: `waf` (the previous WAF managed rules on/off; Pro and above) and
 * `security_level`. Each entry: id, allowed values, default, minimum plan.
 */
export interface SettingDef {
  id: string;
  values: readonly string[];
  fallback: string;
  minPlan: PlanName;
}

export const SETTINGS: readonly SettingDef[] = [
  { id: 'waf', values: ['on', 'off'], fallback: 'off', minPlan: 'pro' },
  {
    id: 'security_level',
    values: ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'],
    fallback: 'medium',
    minPlan: 'free',
  },
];

export const findSetting = (id: string) => SETTINGS.find((s) => s.id === id);

export interface SettingValue {
  id: string;
  value: string;
  editable: boolean;
  modified_on: string | null;
}

export async function readSettings(db: Queryable, zoneId: string, plan: PlanName): Promise<SettingValue[]> {
  const { rows } = await db.query<{ setting_id: string; value: string; modified_on: Date }>(
    'SELECT setting_id, value, modified_on FROM edge_zone_settings WHERE zone_id = $1',
    [zoneId],
  );
  return SETTINGS.map((s) => {
    const row = rows.find((r) => r.setting_id === s.id);
    return {
      id: s.id,
      value: row ? row.value : s.fallback,
      editable: atLeast(plan, s.minPlan),
      modified_on: row ? row.modified_on.toISOString() : null,
    };
  });
}

/** The zone's `waf` setting: is the previous WAF switched on? */
export async function wafSettingOn(db: Queryable, zoneId: string): Promise<boolean> {
  const { rows } = await db.query<{ value: string }>(
    `SELECT value FROM edge_zone_settings WHERE zone_id = $1 AND setting_id = 'waf'`,
    [zoneId],
  );
  return rows[0]?.value === 'on';
}

export async function writeSetting(
  db: Queryable,
  zoneId: string,
  plan: PlanName,
  def: SettingDef,
  value: string,
  at: Date,
): Promise<void> {
  if (!atLeast(plan, def.minPlan)) {
    throw notEntitled(
      `not entitled to change the ${def.id} setting: it needs the ${planLabel(def.minPlan)} plan or above, and this zone is on ${planLabel(plan)}`,
      '/value',
    );
  }
  await db.query(
    `INSERT INTO edge_zone_settings (zone_id, setting_id, value, modified_on) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (zone_id, setting_id) DO UPDATE SET value = EXCLUDED.value, modified_on = EXCLUDED.modified_on`,
    [zoneId, def.id, JSON.stringify(value), at],
  );
}

export const settingSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    value: { type: 'string' },
    editable: { type: 'boolean' },
    modified_on: { type: ['string', 'null'] },
  },
  required: ['id', 'value', 'editable', 'modified_on'],
  additionalProperties: false,
};
