import type { Queryable } from '@cairn/kit';
import { chordFor } from '../data/earth.ts';
import type { HoursEntry } from '../data/hours.ts';
import type { OsPlaceColumns } from '../data/place-record.ts';
import { circleBox, type Order, pointLiteral, rectangleBox, type SearchPlan } from '../search/plan.ts';

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
}

const PLACE_COLUMNS = `fsq_place_id, name, latitude, longitude, address, locality, region, postcode, admin_region,
  post_town, po_box, country, to_char(date_created, 'YYYY-MM-DD') AS date_created,
  to_char(date_refreshed, 'YYYY-MM-DD') AS date_refreshed, to_char(date_closed, 'YYYY-MM-DD') AS date_closed,
  tel, website, email, facebook_id, instagram, twitter, fsq_category_ids, fsq_category_labels, placemaker_url,
  unresolved_flags, fsq_chain_ids, price, rating::float8 AS rating, popularity::float8 AS popularity, hours, time_zone,
  description`;

/** The local minute of the week at $now in the place's zone; Monday 00:00 = 0. */
const LOCAL_MINUTE = (now: string) => `(
  (extract(isodow FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int - 1) * 1440
  + extract(hour FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int * 60
  + extract(minute FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int)`;

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

function sortKey(
  order: Order,
  p: Params,
  plan: SearchPlan,
  origin: string | undefined,
): { expr: string; dir: 'ASC' | 'DESC' } {
  switch (order) {
    case 'distance':
      return { expr: `(pt <-> ${origin}::cube)`, dir: 'ASC' };
    case 'rating':
      return { expr: 'coalesce(rating, -1)::float8', dir: 'DESC' };
    case 'popularity':
      return { expr: 'coalesce(popularity, -1)::float8', dir: 'DESC' };
    case 'relevance': {
      const q = p.add(plan.query!.toLowerCase());
      const near =
        origin && plan.circle
          ? ` + 0.5 * (1 - least((pt <-> ${origin}::cube) / ${p.add(chordFor(plan.circle.radius) || 1)}::float8, 1))`
          : '';
      return {
        expr: `(similarity(${q}, lower(name)) + word_similarity(${q}, search_text) + 0.5 * coalesce(popularity, 0)${near})::float8`,
        dir: 'DESC',
      };
    }
  }
}

/** Extra rows fetched nearest-first so that up to this many places at one distance are ordered by id. */
const KNN_TIE_MARGIN = 100;

export async function searchPlaces(db: Queryable, plan: SearchPlan): Promise<PlaceRow[]> {
  const p = new Params();
  const where: string[] = [];
  const origin = plan.origin ? p.add(pointLiteral(plan.origin)) : undefined;
  if (plan.circle) {
    const center =
      plan.origin && plan.circle.center === plan.origin ? origin! : p.add(pointLiteral(plan.circle.center));
    where.push(`pt <@ ${p.add(circleBox(plan.circle.center, plan.circle.radius))}::cube`);
    where.push(`(pt <-> ${center}::cube) <= ${p.add(chordFor(plan.circle.radius))}::float8`);
  }
  if (plan.rectangle) {
    const { ne, sw } = plan.rectangle;
    where.push(`pt <@ ${p.add(rectangleBox(ne, sw))}::cube`);
    where.push(`latitude BETWEEN ${p.add(sw.latitude)}::float8 AND ${p.add(ne.latitude)}::float8`);
    const west = p.add(sw.longitude);
    const east = p.add(ne.longitude);
    where.push(
      sw.longitude <= ne.longitude
        ? `longitude BETWEEN ${west}::float8 AND ${east}::float8`
        : `(longitude >= ${west}::float8 OR longitude <= ${east}::float8)`,
    );
  }
  if (plan.query !== undefined) {
    const pattern = p.add(likePattern(plan.query));
    where.push(`(search_text LIKE ${pattern} OR ${p.add(plan.query.toLowerCase())} <% search_text)`);
  }
  if (plan.categoryIds.length > 0) {
    // Around a point, walking the GiST index outwards and checking categories row by row beats intersecting
    // with the categories' GIN index (a common category holds a tenth of all places); `IS TRUE` keeps the
    // planner from choosing that index. Without a point, the GIN index is the way in.
    const overlap = `fsq_category_ids && ${p.add(plan.categoryIds)}::text[]`;
    where.push(plan.origin ? `(${overlap}) IS TRUE` : overlap);
  }
  if (plan.chainIds.length > 0) where.push(`fsq_chain_ids && ${p.add(plan.chainIds)}::text[]`);
  if (plan.excludeChainIds.length > 0)
    where.push(`NOT (fsq_chain_ids && ${p.add(plan.excludeChainIds)}::text[])`);
  if (plan.excludeAllChains) where.push(`fsq_chain_ids = '{}'`);
  if (plan.minPrice !== undefined) where.push(`price >= ${p.add(plan.minPrice)}::int`);
  if (plan.maxPrice !== undefined) where.push(`price <= ${p.add(plan.maxPrice)}::int`);
  if (plan.openAtMinute !== undefined) where.push(`open_week @> ${p.add(plan.openAtMinute)}::int`);
  // IS TRUE: the planner's guess for multirange containment is so small that it would read the whole radius
  // rather than walk outwards from the point; it costs a time zone conversion per row, so fewer rows is better.
  if (plan.openNowAt)
    where.push(`(open_week @> ${LOCAL_MINUTE(p.add(plan.openNowAt.toISOString()))}) IS TRUE`);

  const key = sortKey(plan.order, p, plan, origin);
  if (plan.after) {
    const k = p.add(plan.after.key);
    const id = p.add(plan.after.id);
    where.push(
      `(${key.expr} ${key.dir === 'ASC' ? '>' : '<'} ${k}::float8 OR (${key.expr} = ${k}::float8 AND fsq_place_id > ${id}))`,
    );
  }
  const select = `SELECT ${PLACE_COLUMNS}, ${origin ? `(pt <-> ${origin}::cube)` : 'NULL::float8'} AS chord,
       ${key.expr} AS sort_key
  FROM places
 ${where.length > 0 ? `WHERE ${where.join('\n   AND ')}` : ''}`;
  // Nearest-first must be ordered by `pt <-> origin` alone for the GiST index to walk outwards (KNN) and stop
  // after a few rows; a second sort key makes the planner read the whole radius. Ties on distance (places at
  // one point) are then ordered by id over a margin of extra rows.
  const sql =
    plan.order === 'distance'
      ? `SELECT * FROM (${select}
 ORDER BY ${key.expr}
 LIMIT ${p.add(plan.limit + KNN_TIE_MARGIN)}) nearest
 ORDER BY sort_key, fsq_place_id
 LIMIT ${p.add(plan.limit)}`
      : `${select}
 ORDER BY ${key.expr} ${key.dir}, fsq_place_id
 LIMIT ${p.add(plan.limit)}`;
  const { rows } = await db.query<PlaceRow>(sql, p.values);
  return rows;
}

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
