import type { Queryable } from '@cairn/kit';
import type { EditRow, EditStatus, Resolution, Tally } from '../edits/types.ts';

/** Suggested edits: SQL only. */
const EDIT_COLUMNS = `id, fsq_place_id, suggested_edit_type, status, changes, details, latitude, longitude, created_at,
  resolved_time, resolution, resolution_reason, tally, rolled_back_time, rolled_back_reason, created_fsq_place_id,
  matched_fsq_place_id, contributor, organization_id, app_id, user_id, credential_kind, credential_id`;

export async function insertEdit(db: Queryable, edit: EditRow): Promise<void> {
  await db.query(
    `INSERT INTO places_edits (id, fsq_place_id, suggested_edit_type, status, changes, details, latitude, longitude,
       created_at, matched_fsq_place_id, contributor, organization_id, app_id, user_id, credential_kind, credential_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      edit.id,
      edit.fsq_place_id,
      edit.suggested_edit_type,
      edit.status,
      JSON.stringify(edit.changes),
      JSON.stringify(edit.details),
      edit.latitude,
      edit.longitude,
      edit.created_at.toISOString(),
      edit.matched_fsq_place_id,
      edit.contributor,
      edit.organization_id,
      edit.app_id,
      edit.user_id,
      edit.credential_kind,
      edit.credential_id,
    ],
  );
}

/** The edit, its row locked until the transaction ends: votes on one edit are counted one at a time. */
export async function lockEdit(db: Queryable, id: string): Promise<EditRow | undefined> {
  const { rows } = await db.query<EditRow>(
    `SELECT ${EDIT_COLUMNS} FROM places_edits WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function getEdits(db: Queryable, ids: readonly string[]): Promise<EditRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<EditRow>(
    `SELECT ${EDIT_COLUMNS} FROM places_edits WHERE id = ANY($1::text[])`,
    [[...ids]],
  );
  return rows;
}

/** A contributor's edits, newest first. */
export async function editsBy(db: Queryable, contributor: string, limit: number): Promise<EditRow[]> {
  const { rows } = await db.query<EditRow>(
    `SELECT ${EDIT_COLUMNS} FROM places_edits WHERE contributor = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [contributor, limit],
  );
  return rows;
}

/**
 * Pending edits inside a latitude band and longitude range (which may cross the antimeridian), oldest first,
 * leaving out the viewer's own edits, those the viewer has voted on, and those on which the viewer's vote
 * would not count (`isIndependent` in src/trust/independence.ts, in SQL): for a service key or managed user,
 * edits made through its organization; for a person, edits by the service keys and managed users of the
 * organization whose app they act through.
 */
export async function pendingEditsIn(
  db: Queryable,
  box: { south: number; north: number; west: number; east: number } | undefined,
  viewer: { contributor: string; organization_id: string; credential_kind: string },
  limit: number,
): Promise<EditRow[]> {
  const where = [
    `e.status = 'pending'`,
    `e.contributor <> $1`,
    viewer.credential_kind === 'oauth_user'
      ? `NOT (e.credential_kind <> 'oauth_user' AND e.organization_id = $2)`
      : `e.organization_id <> $2`,
  ];
  const values: unknown[] = [viewer.contributor, viewer.organization_id];
  if (box) {
    values.push(box.south, box.north, box.west, box.east);
    where.push('e.latitude BETWEEN $3 AND $4');
    where.push(
      box.west <= box.east ? 'e.longitude BETWEEN $5 AND $6' : '(e.longitude >= $5 OR e.longitude <= $6)',
    );
  }
  values.push(limit);
  const { rows } = await db.query<EditRow>(
    `SELECT ${EDIT_COLUMNS.split(',')
      .map((c) => `e.${c.trim()}`)
      .join(', ')}
       FROM places_edits e
      WHERE ${where.join(' AND ')}
        AND NOT EXISTS (SELECT 1 FROM places_edit_votes v WHERE v.edit_id = e.id AND v.contributor = $1)
      ORDER BY e.created_at, e.id
      LIMIT $${values.length}`,
    values,
  );
  return rows;
}

export async function resolveEdit(
  db: Queryable,
  id: string,
  outcome: {
    status: EditStatus;
    resolution: Resolution;
    reason: string;
    at: Date;
    tally: Tally;
    createdPlaceId?: string;
  },
): Promise<void> {
  await db.query(
    `UPDATE places_edits
        SET status = $2, resolution = $3, resolution_reason = $4, resolved_time = $5, tally = $6::jsonb,
            created_fsq_place_id = coalesce($7, created_fsq_place_id)
      WHERE id = $1`,
    [
      id,
      outcome.status,
      outcome.resolution,
      outcome.reason,
      outcome.at.toISOString(),
      JSON.stringify(outcome.tally),
      outcome.createdPlaceId ?? null,
    ],
  );
}

export async function markRolledBack(db: Queryable, id: string, at: Date, reason: string): Promise<void> {
  await db.query(
    `UPDATE places_edits SET status = 'rolled_back', rolled_back_time = $2, rolled_back_reason = $3 WHERE id = $1`,
    [id, at.toISOString(), reason],
  );
}
