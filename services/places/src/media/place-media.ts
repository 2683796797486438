import { derivedPhotoCount, derivedPhotos } from './photos.ts';
import { type MediaSource, newest, type PhotoView, type StoredMedia, type TipView } from './source.ts';
import { derivedTipCount, derivedTips, sortTips, type TipSort } from './tips.ts';

/**
 * A place's tips and photos: those stored for it (added in the editor, imported) and, for a generated place,
 * those derived from its id. What `/places/{id}/tips`, `/places/{id}/photos` and the `tips`, `photos` and
 * `stats` fields of a place show.
 */
export const TIP_FIELDS = [
  'fsq_tip_id',
  'created_at',
  'text',
  'lang',
  'url',
  'agree_count',
  'disagree_count',
  'photo',
] as const;
export type TipField = (typeof TIP_FIELDS)[number];
export const DEFAULT_TIP_FIELDS: readonly TipField[] = ['fsq_tip_id', 'created_at', 'text'];

export const PHOTO_SORTS = ['POPULAR', 'NEWEST'] as const;
export type PhotoSort = (typeof PHOTO_SORTS)[number];

/** How many tips and photos a place shows inside its `tips` and `photos` fields (the most popular). */
export const IN_PLACE = 5;

export function placeTips(source: MediaSource, stored: StoredMedia, publicUrl: string): TipView[] {
  return [...(stored.tips.get(source.fsq_place_id) ?? []), ...derivedTips(source, publicUrl)];
}

export function placePhotos(source: MediaSource, stored: StoredMedia, publicUrl: string): PhotoView[] {
  return [...(stored.photos.get(source.fsq_place_id) ?? []), ...derivedPhotos(source, publicUrl)];
}

/** `GET /places/{id}/tips`: sorted, the first `limit`, each with the asked fields that have a value. */
export function listTips(
  tips: TipView[],
  options: { sort: TipSort; limit: number; fields: readonly TipField[] },
): Record<string, unknown>[] {
  return sortTips(tips, options.sort)
    .slice(0, options.limit)
    .map((tip) => {
      const out: Record<string, unknown> = {};
      for (const f of options.fields) if (tip[f] !== undefined) out[f] = tip[f];
      return out;
    });
}

/**
 * `GET /places/{id}/photos`: POPULAR keeps the place's own order (stored photos, then the derived ones, most
 * viewed first); NEWEST by creation; `classifications` keeps photos with any of the given ones.
 */
export function listPhotos(
  photos: PhotoView[],
  options: { sort: PhotoSort; limit: number; classifications?: readonly string[] },
): PhotoView[] {
  const wanted = options.classifications ? new Set(options.classifications) : undefined;
  const kept = wanted ? photos.filter((p) => p.classifications.some((c) => wanted.has(c))) : photos;
  const ordered = options.sort === 'NEWEST' ? [...kept].sort(newest) : kept;
  return ordered.slice(0, options.limit);
}

/** `stats`: counts of photos, ratings and tips. A place without a rating has no ratings. */
export function placeStats(source: MediaSource, stored: StoredMedia) {
  const id = source.fsq_place_id;
  const ratings =
    source.rating === null || source.popularity === null
      ? 0
      : 3 +
        Math.round(source.popularity * 450 * (0.6 + ((Number.parseInt(id.slice(-4), 16) || 0) % 80) / 100));
  return {
    total_photos: (stored.photos.get(id)?.length ?? 0) + derivedPhotoCount(source),
    total_ratings: ratings,
    total_tips: (stored.tips.get(id)?.length ?? 0) + derivedTipCount(source),
  };
}
