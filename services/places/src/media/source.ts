/** What a place's tips and photos are derived from: a few of its stored columns (see store/places-read.ts). */
export interface MediaSource {
  fsq_place_id: string;
  name: string;
  country: string | null;
  fsq_category_labels: readonly string[];
  /** Only places with a popularity (the generator's) get derived tips and photos; imported ones keep their own. */
  popularity: number | null;
  rating: number | null;
  date_created: string | null;
  date_refreshed: string | null;
}

export interface PhotoView {
  id: string;
  created_at: string;
  prefix: string;
  suffix: string;
  width: number;
  height: number;
  classifications: string[];
}

export type TipPhoto = Omit<PhotoView, 'classifications'>;

export interface TipView {
  fsq_tip_id: string;
  created_at: string;
  text: string;
  lang?: string;
  url?: string;
  agree_count: number;
  disagree_count: number;
  photo?: TipPhoto;
}

/** A place's stored tips and photos (added in the editor, or imported), by place id. */
export interface StoredMedia {
  tips: ReadonlyMap<string, readonly TipView[]>;
  photos: ReadonlyMap<string, readonly PhotoView[]>;
}

export const NO_STORED_MEDIA: StoredMedia = { tips: new Map(), photos: new Map() };

const FIRST = Date.UTC(2012, 0, 1);
const LAST = Date.UTC(2025, 5, 1);

/** The span a place's derived tips and photos were made in: from its creation to its last refresh. */
export function timeSpan(source: MediaSource): { from: number; to: number } {
  const from = source.date_created ? Date.parse(`${source.date_created}T00:00:00Z`) : FIRST;
  const refreshed = source.date_refreshed ? Date.parse(`${source.date_refreshed}T00:00:00Z`) : LAST;
  const start = Number.isFinite(from) ? from : FIRST;
  const end = Number.isFinite(refreshed) && refreshed > start ? refreshed : start + 86_400_000 * 365;
  return { from: start, to: end };
}

/** A moment in the span, to the second. */
export const momentIn = (span: { from: number; to: number }, at: number) =>
  new Date(Math.floor((span.from + at * (span.to - span.from)) / 1000) * 1000).toISOString();

/** Newest first. */
export const newest = (a: { created_at: string }, b: { created_at: string }) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;
