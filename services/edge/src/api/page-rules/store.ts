import type { Queryable } from '@cairn/kit';

export interface PageRuleTarget {
  target: 'url';
  constraint: { operator: string; value: string };
}

export interface PageRuleAction {
  id: string;
  value?: string;
}

export interface PageRule {
  id: string;
  zoneId: string;
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
  createdOn: Date;
  modifiedOn: Date;
}

interface Row {
  id: string;
  zone_id: string;
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
  created_on: Date;
  modified_on: Date;
}

const toRule = (r: Row): PageRule => ({
  id: r.id,
  zoneId: r.zone_id,
  targets: r.targets,
  actions: r.actions,
  priority: r.priority,
  status: r.status,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
});

/** Highest priority first: that page rule wins. */
export async function listPageRules(db: Queryable, zoneId: string): Promise<PageRule[]> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM edge_page_rules WHERE zone_id = $1 ORDER BY priority DESC, created_on, id',
    [zoneId],
  );
  return rows.map(toRule);
}

export async function findPageRule(db: Queryable, zoneId: string, id: string): Promise<PageRule | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_page_rules WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rows[0] && toRule(rows[0]);
}

export async function savePageRule(db: Queryable, r: PageRule): Promise<void> {
  await db.query(
    `INSERT INTO edge_page_rules (id, zone_id, targets, actions, priority, status, created_on, modified_on)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET targets = EXCLUDED.targets, actions = EXCLUDED.actions, priority = EXCLUDED.priority,
       status = EXCLUDED.status, modified_on = EXCLUDED.modified_on`,
    [
      r.id,
      r.zoneId,
      JSON.stringify(r.targets),
      JSON.stringify(r.actions),
      r.priority,
      r.status,
      r.createdOn,
      r.modifiedOn,
    ],
  );
}

export async function deletePageRuleRow(db: Queryable, zoneId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM edge_page_rules WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rowCount > 0;
}
