import type { Queryable } from '@cairn/kit';

/** A DNS record of a zone; Cairn keeps TXT records only (ownership verification reads them). */
export interface DnsRecord {
  id: string;
  zoneId: string;
  type: 'TXT';
  name: string;
  content: string;
  ttl: number;
  createdOn: Date;
  modifiedOn: Date;
}

interface Row {
  id: string;
  zone_id: string;
  type: 'TXT';
  name: string;
  content: string;
  ttl: number;
  created_on: Date;
  modified_on: Date;
}

const toRecord = (r: Row): DnsRecord => ({
  id: r.id,
  zoneId: r.zone_id,
  type: r.type,
  name: r.name,
  content: r.content,
  ttl: r.ttl,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
});

export async function insertDnsRecord(db: Queryable, r: DnsRecord): Promise<void> {
  await db.query(
    `INSERT INTO edge_dns_records (id, zone_id, type, name, content, ttl, created_on, modified_on)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [r.id, r.zoneId, r.type, r.name, r.content, r.ttl, r.createdOn, r.modifiedOn],
  );
}

export async function listDnsRecords(
  db: Queryable,
  zoneId: string,
  filter: { name?: string; content?: string } = {},
): Promise<DnsRecord[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM edge_dns_records WHERE zone_id = $1
       AND ($2::text IS NULL OR name = $2) AND ($3::text IS NULL OR content = $3)
     ORDER BY name, created_on, id`,
    [zoneId, filter.name ?? null, filter.content ?? null],
  );
  return rows.map(toRecord);
}

export async function findDnsRecord(
  db: Queryable,
  zoneId: string,
  id: string,
): Promise<DnsRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_dns_records WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rows[0] && toRecord(rows[0]);
}

export async function deleteDnsRecord(db: Queryable, zoneId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM edge_dns_records WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rowCount > 0;
}

/** Does the zone hold the TXT record `name` with exactly `content`? */
export async function txtRecordExists(
  db: Queryable,
  zoneId: string,
  name: string,
  content: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM edge_dns_records WHERE zone_id = $1 AND type = 'TXT' AND name = $2 AND content = $3 LIMIT 1`,
    [zoneId, name, content],
  );
  return rows.length > 0;
}
