import { kindOf } from './kinds.ts';
import { derivedPhotos } from './photos.ts';
import { Seeded } from './seeded.ts';
import { type MediaSource, momentIn, newest, type TipView, timeSpan } from './source.ts';
import { languageOf, TIP_ENDINGS, TIP_TEXTS } from './tip-texts.ts';

/**
 * Derived tips of a generated place: how many follows its popularity, at most one per text, so a place never
 * says the same thing twice; the texts are everyday remarks for its kind in its country's language (English
 * where we have none), some with one of the place's photos.
 */
export function derivedTipCount(source: MediaSource): number {
  if (source.popularity === null) return 0;
  const seed = new Seeded(`tips:${source.fsq_place_id}`);
  const distinct = textsOf(source).length * (1 + TIP_ENDINGS[languageOf(source.country)].length);
  return Math.min(distinct, Math.floor(source.popularity * 24 + seed.next() * 3));
}

const textsOf = (source: MediaSource) =>
  TIP_TEXTS[languageOf(source.country)][kindOf(source.fsq_category_labels)];

export function derivedTips(source: MediaSource, publicUrl: string): TipView[] {
  const count = derivedTipCount(source);
  if (count === 0) return [];
  const lang = languageOf(source.country);
  const texts = textsOf(source);
  // The place's photos, derived only when a tip shows one.
  let photos: ReturnType<typeof derivedPhotos> | undefined;
  const span = timeSpan(source);
  const popularity = source.popularity ?? 0;
  const out: TipView[] = [];
  // One stream per place (one hash): the tips' ids, texts, dates and counts, in order.
  const seed = new Seeded(`tip-stream:${source.fsq_place_id}`);
  const offset = seed.int(texts.length);
  for (let i = 0; i < count; i++) {
    const id = seed.hex24();
    // Each text once, then each again with one more ending: no two tips of a place say the same.
    const round = Math.floor(i / texts.length);
    const ending = round === 0 ? '' : ` ${TIP_ENDINGS[lang][round - 1]}`;
    const text = `${texts[(offset + i) % texts.length]!.replace('{name}', source.name)}${ending}`;
    const tip: TipView = {
      fsq_tip_id: id,
      created_at: momentIn(span, seed.next()),
      text,
      lang,
      agree_count: Math.floor(seed.next() ** 2 * (4 + popularity * 80)),
      disagree_count: Math.floor(seed.next() ** 4 * 4),
    };
    if (seed.chance(0.25)) {
      photos ??= derivedPhotos(source, publicUrl);
      const photo = photos[i % photos.length];
      if (photo) {
        const { classifications: _c, ...rest } = photo;
        tip.photo = rest;
      }
    }
    out.push(tip);
  }
  return out;
}

export const TIP_SORTS = ['POPULAR', 'NEWEST'] as const;
export type TipSort = (typeof TIP_SORTS)[number];

/** POPULAR: most agreed with first (agreements less disagreements), then newest; NEWEST: newest first. */
export function sortTips(tips: TipView[], sort: TipSort): TipView[] {
  const byId = (a: TipView, b: TipView) => (a.fsq_tip_id < b.fsq_tip_id ? -1 : 1);
  if (sort === 'NEWEST') return tips.sort((a, b) => newest(a, b) || byId(a, b));
  const score = (t: TipView) => t.agree_count - t.disagree_count;
  return tips.sort((a, b) => score(b) - score(a) || newest(a, b) || byId(a, b));
}
