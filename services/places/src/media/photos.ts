import { kindOf, PHOTO_MIX } from './kinds.ts';
import { Seeded } from './seeded.ts';
import { type MediaSource, momentIn, type PhotoView, timeSpan } from './source.ts';

/**
 * Derived photos of a generated place: how many follows its popularity; each has an id, a moment between the
 * place's creation and refresh, a classification typical of its kind (food_or_drink for a restaurant,
 * exhibit for a museum) and an original size of 1440×1080 or 1080×1440. Its URL is prefix + size + suffix,
 * served by this Cairn (media/image.ts draws it); the suffix names what the image is drawn from.
 */
export const PHOTO_PATH = '/places-photos/';
export const ORIGINAL_LONG_SIDE = 1440;
export const ORIGINAL_SHORT_SIDE = 1080;

export function derivedPhotoCount(source: MediaSource): number {
  if (source.popularity === null) return 0;
  const seed = new Seeded(`photos:${source.fsq_place_id}`);
  return 1 + Math.floor(source.popularity * 30 + seed.next() * 4);
}

/** The file part of a derived photo's suffix: `<id>-<classification>-<w>x<h>.png`. */
export const photoFile = (id: string, classification: string, width: number, height: number) =>
  `${id}-${classification}-${width}x${height}.png`;

export function derivedPhotos(source: MediaSource, publicUrl: string): PhotoView[] {
  const count = derivedPhotoCount(source);
  const mix = PHOTO_MIX[kindOf(source.fsq_category_labels)];
  const span = timeSpan(source);
  const out: PhotoView[] = [];
  // One stream per place (one hash): the photos' ids, kinds, shapes and dates, in order.
  const seed = new Seeded(`photo-stream:${source.fsq_place_id}`);
  for (let i = 0; i < count; i++) {
    const id = seed.hex24();
    const classification = seed.pick(mix);
    const portrait = seed.chance(0.4);
    const width = portrait ? ORIGINAL_SHORT_SIDE : ORIGINAL_LONG_SIDE;
    const height = portrait ? ORIGINAL_LONG_SIDE : ORIGINAL_SHORT_SIDE;
    out.push({
      id,
      created_at: momentIn(span, seed.next()),
      prefix: `${publicUrl}${PHOTO_PATH}`,
      suffix: `/${photoFile(id, classification, width, height)}`,
      width,
      height,
      classifications: [classification],
    });
  }
  return out;
}
