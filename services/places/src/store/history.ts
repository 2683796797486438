import type { Queryable } from '@cairn/kit';
import type { Json } from '../edits/types.ts';

/** The history of places: one row per field changed by an applied edit or restored by a rollback. */
export interface HistoryEntry {
  fsq_place_id: string;
  edit_id: string;
  action: 'apply' | 'rollback';
  field: string;
  from: Json;
  to: Json;
  at: Date;
  organization_id: string | null;
  app_id: string | null;
  user_id: number | null;
  credential_kind: string;
}

export interface HistoryRow extends HistoryEntry {
  id: number;
  suggested_edit_type: string;
}

export async function insertHistory(db: Queryable, entries: readonly HistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof HistoryEntry>(k: K) => entries.map((e) => e[k]);
  await db.query(
    `INSERT INTO places_history (fsq_place_id, edit_id, action, field, from_value, to_value, at, organization_id,
       app_id, user_id, credential_kind)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[],
       $7::timestamptz[], $8::text[], $9::text[], $10::int8[], $11::text[])`,
    [
      column('fsq_place_id'),
      column('edit_id'),
      column('action'),
      column('field'),
      entries.map((e) => JSON.stringify(e.from)),
      entries.map((e) => JSON.stringify(e.to)),
      entries.map((e) => e.at.toISOString()),
      column('organization_id'),
      column('app_id'),
      column('user_id'),
      column('credential_kind'),
    ],
  );
}

/** A place's history, newest first; `before` is the id of the last row of the previous page. */
export async function historyOf(
  db: Queryable,
  placeId: string,
  limit: number,
  before?: number,
): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `SELECT h.id, h.fsq_place_id, h.edit_id, h.action, h.field, h.from_value AS "from", h.to_value AS "to", h.at,
            h.organization_id, h.app_id, h.user_id, h.credential_kind, e.suggested_edit_type
       FROM places_history h JOIN places_edits e ON e.id = h.edit_id
      WHERE h.fsq_place_id = $1 AND ($2::int8 IS NULL OR h.id < $2)
      ORDER BY h.id DESC
      LIMIT $3`,
    [placeId, before ?? null, limit],
  );
  return rows;
}

/**
 * Accepted edits other than `editId` that changed the given fields of a place after `editId` was applied
 * (any field when `fields` is null), newest first.
 */
export async function laterAcceptedEdits(
  db: Queryable,
  placeId: string,
  editId: string,
  fields: readonly string[] | null,
): Promise<{ edit_id: string; field: string; at: Date }[]> {
  const { rows } = await db.query<{ edit_id: string; field: string; at: Date }>(
    `SELECT h.edit_id, min(h.field) AS field, max(h.at) AS at
       FROM places_history h JOIN places_edits e ON e.id = h.edit_id
      WHERE h.fsq_place_id = $1 AND h.action = 'apply' AND e.status = 'accepted' AND h.edit_id <> $2
        AND ($3::text[] IS NULL OR h.field = ANY($3::text[]))
        AND h.id > (SELECT coalesce(max(id), 0) FROM places_history WHERE edit_id = $2 AND action = 'apply')
      GROUP BY h.edit_id
      ORDER BY max(h.id) DESC`,
    [placeId, editId, fields === null ? null : [...fields]],
  );
  return rows;
}
