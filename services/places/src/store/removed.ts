import type { Queryable } from '@cairn/kit';

/**
 * Places taken out by an accepted removal or merge: the whole row is kept (to_jsonb) and the place leaves
 * `places`, so search and details no longer see it; a rollback puts the same row back.
 */
export async function takeOutPlace(
  db: Queryable,
  placeId: string,
  editId: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO places_removed (fsq_place_id, place, edit_id, removed_at)
     SELECT fsq_place_id, to_jsonb(p.*), $2, $3 FROM places p WHERE fsq_place_id = $1
     ON CONFLICT (fsq_place_id) DO UPDATE SET place = EXCLUDED.place, edit_id = EXCLUDED.edit_id,
       removed_at = EXCLUDED.removed_at`,
    [placeId, editId, at.toISOString()],
  );
  if (rowCount === 0) return false;
  await db.query('DELETE FROM places WHERE fsq_place_id = $1', [placeId]);
  return true;
}

/** Puts a taken-out place back; false when it is not there or a place with its id exists again. */
export async function putBackPlace(db: Queryable, placeId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO places SELECT (jsonb_populate_record(NULL::places, place)).* FROM places_removed
      WHERE fsq_place_id = $1
     ON CONFLICT (fsq_place_id) DO NOTHING`,
    [placeId],
  );
  if (rowCount === 0) return false;
  await db.query('DELETE FROM places_removed WHERE fsq_place_id = $1', [placeId]);
  return true;
}

export async function setDescription(
  db: Queryable,
  placeId: string,
  description: string | null,
): Promise<void> {
  await db.query('UPDATE places SET description = $2 WHERE fsq_place_id = $1', [placeId, description]);
}
