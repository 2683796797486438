import type { Queryable } from '@cairn/kit';
import { chordFor } from '../data/earth.ts';
import type { HoursEntry } from '../data/hours.ts';
import type { OsPlaceColumns } from '../data/place-record.ts';
import type { FieldName } from '../search/fields.ts';
import { circleBox, pointLiteral, type RelevanceTier } from '../search/plan.ts';

/** A place as read for the API: the stored columns, and the chord to the origin and sort key when searched. */
export interface PlaceRow extends OsPlaceColumns {
  fsq_chain_ids: string[];
  price: number | null;
  rating: number | null;
  popularity: number | null;
  hours: HoursEntry[] | null;
  time_zone: string | null;
  /** At most 300 characters; set by suggested edits. */
  description: string | null;
  chord?: number | null;
  sort_key?: number;
  score?: number;
  /**
   * Which ranked set a relevance search's row came from after the first (store/places-search.ts): matches as
   * written beyond the window of the nearest, or matches of the query only approximately (trigram word
   * similarity).
   */
  tier?: RelevanceTier;
}

export const PLACE_COLUMNS = `fsq_place_id, name, latitude, longitude, address, locality, region, postcode, admin_region,
  post_town, po_box, country, to_char(date_created, 'YYYY-MM-DD') AS date_created,
  to_char(date_refreshed, 'YYYY-MM-DD') AS date_refreshed, to_char(date_closed, 'YYYY-MM-DD') AS date_closed,
  tel, website, email, facebook_id, instagram, twitter, fsq_category_ids, fsq_category_labels, placemaker_url,
  unresolved_flags, fsq_chain_ids, price, rating::float8 AS rating, popularity::float8 AS popularity, hours, time_zone,
  description`;

/** What a place's derived tips, photos and stats are made from (media/source.ts). */
const MEDIA = ['tips', 'photos', 'stats'] as const;

/**
 * The columns of PLACE_COLUMNS that rendering each field reads (see search/render.ts); fsq_place_id is always
 * read (ties, cursors). A search reads only what its fields need: the default Pro fields leave out the dates
 * created and refreshed, price, rating, popularity, hours, time zone and description.
 */
const COLUMN_FIELDS: readonly (readonly [column: string, fields: readonly FieldName[]])[] = [
  ['fsq_place_id', []],
  ['name', ['name', 'tips']],
  ['latitude', ['latitude']],
  ['longitude', ['longitude']],
  ['address', ['location']],
  ['locality', ['location']],
  ['region', ['location']],
  ['postcode', ['location']],
  ['admin_region', ['location']],
  ['post_town', ['location']],
  ['po_box', ['location']],
  ['country', ['location', 'tel', 'tips']],
  ["to_char(date_created, 'YYYY-MM-DD') AS date_created", ['date_created', ...MEDIA]],
  ["to_char(date_refreshed, 'YYYY-MM-DD') AS date_refreshed", ['date_refreshed', ...MEDIA]],
  ["to_char(date_closed, 'YYYY-MM-DD') AS date_closed", ['date_closed']],
  ['tel', ['tel']],
  ['website', ['website']],
  ['email', ['email']],
  ['facebook_id', ['social_media']],
  ['instagram', ['social_media']],
  ['twitter', ['social_media']],
  ['fsq_category_ids', ['categories']],
  ['fsq_category_labels', ['categories', ...MEDIA]],
  ['placemaker_url', ['placemaker_url']],
  ['unresolved_flags', ['unresolved_flags']],
  ['fsq_chain_ids', ['chains']],
  ['price', ['price']],
  ['rating::float8 AS rating', ['rating', 'stats']],
  ['popularity::float8 AS popularity', ['popularity', ...MEDIA]],
  ['hours', ['hours']],
  ['time_zone', ['hours']],
  ['description', ['description']],
];

/** PLACE_COLUMNS narrowed to what `fields` render; the other PlaceRow properties are then absent. */
export function placeColumnsFor(fields: ReadonlySet<FieldName>): string {
  return COLUMN_FIELDS.filter(([, needs]) => needs.length === 0 || needs.some((f) => fields.has(f)))
    .map(([column]) => column)
    .join(', ');
}

export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

export async function findPlace(db: Queryable, id: string): Promise<PlaceRow | undefined> {
  const { rows } = await db.query<PlaceRow>(`SELECT ${PLACE_COLUMNS} FROM places WHERE fsq_place_id = $1`, [
    id,
  ]);
  return rows[0];
}

/** The place, its row locked until the transaction ends (applying an edit, rolling one back). */
export async function lockPlace(db: Queryable, id: string): Promise<PlaceRow | undefined> {
  const { rows } = await db.query<PlaceRow>(
    `SELECT ${PLACE_COLUMNS} FROM places WHERE fsq_place_id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function findPlaces(db: Queryable, ids: readonly string[]): Promise<Map<string, PlaceRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<PlaceRow>(
    `SELECT ${PLACE_COLUMNS} FROM places WHERE fsq_place_id = ANY($1::text[])`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.fsq_place_id, r]));
}

/** Autocomplete: places whose name has a word starting with the text, nearest to the origin first. */
export async function placesByNamePrefix(
  db: Queryable,
  text: string,
  origin: { latitude: number; longitude: number } | undefined,
  limit: number,
): Promise<PlaceRow[]> {
  const p = new Params();
  const lower = text.toLowerCase().replace(/[\\%_]/g, '\\$&');
  const starts = p.add(`${lower}%`);
  const word = p.add(`% ${lower}%`);
  const o = origin ? p.add(pointLiteral(origin)) : undefined;
  const { rows } = await db.query<PlaceRow>(
    `SELECT ${PLACE_COLUMNS}, ${o ? `(pt <-> ${o}::cube)` : 'NULL::float8'} AS chord
       FROM places
      WHERE (lower(name) LIKE ${starts} OR lower(name) LIKE ${word}) AND search_text LIKE ${p.add(`%${lower}%`)}
      ORDER BY ${o ? `pt <-> ${o}::cube` : 'coalesce(popularity, 0) DESC'}, fsq_place_id
      LIMIT ${p.add(limit)}`,
    p.values,
  );
  return rows;
}

/** Match: places within `radius` metres of a point whose names resemble `name`, with the similarity. */
export async function matchCandidates(
  db: Queryable,
  name: string,
  center: { latitude: number; longitude: number },
  radius: number,
): Promise<(PlaceRow & { name_similarity: number })[]> {
  const p = new Params();
  const c = p.add(pointLiteral(center));
  const q = p.add(name.toLowerCase());
  const { rows } = await db.query<PlaceRow & { name_similarity: number }>(
    `SELECT ${PLACE_COLUMNS}, (pt <-> ${c}::cube) AS chord,
            greatest(similarity(${q}, lower(name)), word_similarity(${q}, lower(name)))::float8 AS name_similarity
       FROM places
      WHERE pt <@ ${p.add(circleBox(center, radius))}::cube
        AND (pt <-> ${c}::cube) <= ${p.add(chordFor(radius))}::float8
        AND (${q} <% search_text OR search_text LIKE ${p.add(likePattern(name))})
      ORDER BY pt <-> ${c}::cube
      LIMIT 50`,
    p.values,
  );
  return rows;
}
