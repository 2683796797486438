import type { Queryable } from '@cairn/kit';
import type { PhotoView, StoredMedia, TipPhoto, TipView } from '../media/source.ts';

/** Stored tips and photos (places_tips, places_photos; migration 0014): SQL only. */
interface TipRow {
  fsq_place_id: string;
  fsq_tip_id: string;
  created_at: string;
  text: string;
  lang: string | null;
  url: string | null;
  agree_count: number;
  disagree_count: number;
  photo: TipPhoto | null;
}

const ISO = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

function tipView(row: TipRow): TipView {
  const tip: TipView = {
    fsq_tip_id: row.fsq_tip_id,
    created_at: row.created_at,
    text: row.text,
    agree_count: row.agree_count,
    disagree_count: row.disagree_count,
  };
  if (row.lang !== null) tip.lang = row.lang;
  if (row.url !== null) tip.url = row.url;
  if (row.photo !== null) tip.photo = row.photo;
  return tip;
}

/** The stored tips and photos of these places (none read when `want` asks for neither). */
export async function storedMedia(
  db: Queryable,
  placeIds: readonly string[],
  want: { tips: boolean; photos: boolean },
): Promise<StoredMedia> {
  const tips = new Map<string, TipView[]>();
  const photos = new Map<string, PhotoView[]>();
  if (placeIds.length === 0) return { tips, photos };
  if (want.tips) {
    const { rows } = await db.query<TipRow>(
      `SELECT fsq_place_id, fsq_tip_id, ${ISO}, text, lang, url, agree_count, disagree_count, photo
         FROM places_tips WHERE fsq_place_id = ANY($1::text[]) ORDER BY created_at DESC, fsq_tip_id`,
      [placeIds],
    );
    for (const row of rows) {
      const list = tips.get(row.fsq_place_id) ?? [];
      list.push(tipView(row));
      tips.set(row.fsq_place_id, list);
    }
  }
  if (want.photos) {
    const { rows } = await db.query<PhotoView & { fsq_place_id: string }>(
      `SELECT fsq_place_id, id, ${ISO}, prefix, suffix, width, height, classifications
         FROM places_photos WHERE fsq_place_id = ANY($1::text[]) ORDER BY created_at DESC, id`,
      [placeIds],
    );
    for (const { fsq_place_id, ...photo } of rows) {
      const list = photos.get(fsq_place_id) ?? [];
      list.push(photo);
      photos.set(fsq_place_id, list);
    }
  }
  return { tips, photos };
}

export interface NewTip {
  fsq_tip_id: string;
  fsq_place_id: string;
  created_at: Date;
  text: string;
  lang: string | null;
  url: string | null;
  source: 'edit' | 'import';
  edit_id: string | null;
  organization_id: string | null;
  app_id: string | null;
  user_id: number | null;
  agree_count?: number;
  disagree_count?: number;
  photo?: TipPhoto | null;
}

export async function insertTips(db: Queryable, tips: readonly NewTip[]): Promise<void> {
  if (tips.length === 0) return;
  await db.query(
    `INSERT INTO places_tips (fsq_tip_id, fsq_place_id, created_at, text, lang, url, agree_count, disagree_count,
       photo, source, edit_id, organization_id, app_id, user_id)
     SELECT t.fsq_tip_id, t.fsq_place_id, t.created_at, t.text, t.lang, t.url, t.agree_count, t.disagree_count,
       t.photo, t.source, t.edit_id, t.organization_id, t.app_id, t.user_id
       FROM jsonb_to_recordset($1::jsonb) AS t(fsq_tip_id text, fsq_place_id text, created_at timestamptz, text text,
         lang text, url text, agree_count int, disagree_count int, photo jsonb, source text, edit_id text,
         organization_id text, app_id text, user_id bigint)
     ON CONFLICT (fsq_tip_id) DO NOTHING`,
    [
      JSON.stringify(
        tips.map((t) => ({
          ...t,
          created_at: t.created_at.toISOString(),
          agree_count: t.agree_count ?? 0,
          disagree_count: t.disagree_count ?? 0,
          photo: t.photo ?? null,
        })),
      ),
    ],
  );
}

/** Takes out the tip an edit added (its rollback); false when it is not there. */
export async function deleteTipOfEdit(db: Queryable, editId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM places_tips WHERE edit_id = $1', [editId]);
  return (rowCount ?? 0) > 0;
}

export interface NewPhoto extends PhotoView {
  fsq_place_id: string;
}

export async function insertPhotos(db: Queryable, photos: readonly NewPhoto[]): Promise<void> {
  if (photos.length === 0) return;
  await db.query(
    `INSERT INTO places_photos (id, fsq_place_id, created_at, prefix, suffix, width, height, classifications)
     SELECT p.id, p.fsq_place_id, p.created_at, p.prefix, p.suffix, p.width, p.height,
            ARRAY(SELECT jsonb_array_elements_text(p.classifications))
       FROM jsonb_to_recordset($1::jsonb) AS p(id text, fsq_place_id text, created_at timestamptz, prefix text,
         suffix text, width int, height int, classifications jsonb)
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(photos)],
  );
}
