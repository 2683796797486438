import type { Queryable } from '@cairn/kit';

export interface FirewallRule {
  id: string;
  zoneId: string;
  filterId: string;
  action: string;
  products: string[];
  priority: number | null;
  paused: boolean;
  description: string;
  ref: string;
  createdOn: Date;
  modifiedOn: Date;
}

interface Row {
  id: string;
  zone_id: string;
  filter_id: string;
  action: string;
  products: string[];
  priority: number | null;
  paused: boolean;
  description: string;
  ref: string;
  created_on: Date;
  modified_on: Date;
}

const toRule = (r: Row): FirewallRule => ({
  id: r.id,
  zoneId: r.zone_id,
  filterId: r.filter_id,
  action: r.action,
  products: r.products,
  priority: r.priority,
  paused: r.paused,
  description: r.description,
  ref: r.ref,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
});

/** In evaluation order: rules with a priority first (lower first), then the others by creation. */
export async function listFirewallRules(db: Queryable, zoneId: string): Promise<FirewallRule[]> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM edge_firewall_rules WHERE zone_id = $1 ORDER BY priority ASC NULLS LAST, created_on, id',
    [zoneId],
  );
  return rows.map(toRule);
}

export async function findFirewallRule(
  db: Queryable,
  zoneId: string,
  id: string,
): Promise<FirewallRule | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_firewall_rules WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rows[0] && toRule(rows[0]);
}

export async function saveFirewallRule(db: Queryable, r: FirewallRule): Promise<void> {
  await db.query(
    `INSERT INTO edge_firewall_rules (id, zone_id, filter_id, action, products, priority, paused, description, ref, created_on, modified_on)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET filter_id = EXCLUDED.filter_id, action = EXCLUDED.action, products = EXCLUDED.products,
       priority = EXCLUDED.priority, paused = EXCLUDED.paused, description = EXCLUDED.description, ref = EXCLUDED.ref,
       modified_on = EXCLUDED.modified_on`,
    [
      r.id,
      r.zoneId,
      r.filterId,
      r.action,
      JSON.stringify(r.products),
      r.priority,
      r.paused,
      r.description,
      r.ref,
      r.createdOn,
      r.modifiedOn,
    ],
  );
}

export async function deleteFirewallRuleRow(db: Queryable, zoneId: string, id: string): Promise<void> {
  await db.query('DELETE FROM edge_firewall_rules WHERE zone_id = $1 AND id = $2', [zoneId, id]);
}

export async function countFirewallRules(db: Queryable, zoneId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM edge_firewall_rules WHERE zone_id = $1',
    [zoneId],
  );
  return rows[0]?.n ?? 0;
}
