import type { Queryable } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { placeNotFound } from '../errors.ts';
import { PLACE_ID } from '../reference/ids.ts';
import type { FieldName } from '../search/fields.ts';
import { storedMedia } from '../store/media.ts';
import { findPlace } from '../store/places-read.ts';
import {
  DEFAULT_TIP_FIELDS,
  listPhotos,
  listTips,
  type PhotoSort,
  placePhotos,
  placeTips,
  type TipField,
} from './place-media.ts';
import type { PhotoView, StoredMedia } from './source.ts';
import type { TipSort } from './tips.ts';

/** The stored tips and photos of rendered places, read only when `fields` asks for tips, photos or stats. */
export async function mediaForFields(
  db: Queryable,
  placeIds: readonly string[],
  fields: ReadonlySet<FieldName>,
): Promise<StoredMedia | undefined> {
  const tips = fields.has('tips') || fields.has('stats');
  const photos = fields.has('photos') || fields.has('stats');
  if (!tips && !photos) return undefined;
  return storedMedia(db, placeIds, { tips, photos });
}

async function placeOf(deps: PlacesDeps, id: string) {
  const row = PLACE_ID.test(id) ? await findPlace(deps.db, id) : undefined;
  if (!row) throw placeNotFound(id);
  return row;
}

const commaList = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** `GET /places/{fsq_place_id}/tips` */
export async function tipsOfPlace(
  deps: PlacesDeps,
  id: string,
  query: { limit?: number; sort?: TipSort; fields?: string },
): Promise<Record<string, unknown>[]> {
  const row = await placeOf(deps, id);
  const stored = await storedMedia(deps.db, [row.fsq_place_id], { tips: true, photos: false });
  const fields = [...new Set(commaList(query.fields) ?? DEFAULT_TIP_FIELDS)] as TipField[];
  return listTips(placeTips(row, stored, deps.publicUrl), {
    sort: query.sort ?? 'POPULAR',
    limit: query.limit ?? 10,
    fields,
  });
}

/** `GET /places/{fsq_place_id}/photos` */
export async function photosOfPlace(
  deps: PlacesDeps,
  id: string,
  query: { limit?: number; sort?: PhotoSort; classifications?: string },
): Promise<PhotoView[]> {
  const row = await placeOf(deps, id);
  const stored = await storedMedia(deps.db, [row.fsq_place_id], { tips: false, photos: true });
  const classifications = commaList(query.classifications);
  return listPhotos(placePhotos(row, stored, deps.publicUrl), {
    sort: query.sort ?? 'POPULAR',
    limit: query.limit ?? 10,
    ...(classifications ? { classifications } : {}),
  });
}
