import type { Queryable } from '@cairn/kit';
import { chordFor } from '../data/earth.ts';
import { MINUTES_PER_WEEK, utcMinuteOfWeek } from '../data/hours.ts';
import { categorySlotToken, openKind, openSlotToken } from '../data/open-hours.ts';
import { circleBox, type Order, pointLiteral, rectangleBox, type SearchPlan } from '../search/plan.ts';
import { likePattern, Params, PLACE_COLUMNS, type PlaceRow, placeColumnsFor } from './places-read.ts';

/**
 * The search query. Three shapes, chosen by the order (see bench/places-explain.ts for the plans on 1M places):
 *
 * - Nearest first: the GiST index walks outwards from the origin (KNN) inside the circle's or rectangle's box,
 *   the other filters are checked row by row on what it yields, and the scan stops once the page is full.
 *   The walk sits in a subquery fenced by `OFFSET 0`; the filters around it are wrapped in `booleq(…, true)`,
 *   whose selectivity the planner takes as a third instead of multiplying guesses down to one row (which made
 *   it read and sort the whole box instead). Ties on distance are settled by id in the application, fetching
 *   more rows only when the page's last distance is shared with the next row.
 * - Relevance around a point: each way the query matches walks the GiST index outwards to the window of the
 *   nearest matches, which are scored (relevancePages); past the window, and without a point, every text match
 *   of the area is scored. `places_pt_text_gist` (point, trigrams, kinds) answers "in the box and matching"
 *   inside the index.
 * - Rating, popularity: every match in the area, sorted.
 */

/**
 * The third column of places_pt_text_gist (0013, 0017): each place's category ids, the UTC slots it is open and
 * its category-and-slot tokens (data/open-hours.ts) as one tsvector; a condition on it must spell the
 * expression exactly so.
 */
const KINDS = 'array_to_tsvector(fsq_category_ids || open_hours)';

/** The local minute of the week at $now in the place's zone; Monday 00:00 = 0. */
const LOCAL_MINUTE = (now: string) => `(
  (extract(isodow FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int - 1) * 1440
  + extract(hour FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int * 60
  + extract(minute FROM (${now}::timestamptz AT TIME ZONE coalesce(time_zone, 'UTC')))::int)`;

/**
 * The local minute at `now` for each place: the minutes of the zones the application worked out for the area
 * are looked up by name (a few text comparisons a row); any other zone is converted in SQL (~1.3 µs a row).
 */
function localMinute(p: Params, plan: SearchPlan, now: string): string {
  const zones = plan.openNowZones ?? [];
  if (zones.length === 0) return LOCAL_MINUTE(now);
  const cases = zones.map((z) => `WHEN ${p.add(z.zone)} THEN ${p.add(z.minute)}::int`).join(' ');
  return `(CASE time_zone ${cases} ELSE ${LOCAL_MINUTE(now)} END)`;
}

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
    case 'relevance':
      return { expr: relevance(p, plan, origin), dir: 'DESC' };
  }
}

/**
 * sort=RELEVANCE, documented in docs/places-relevance.md: 0.6 × text + 0.3 × nearness + 0.1 × quality, where
 * - text is the best of: the name's match, 0.4 × similarity + 0.6 × word_similarity of the query and the name
 *   (trigrams: 1 for the exact name, about 0.6–0.9 when the query is a word or the start of it); 0.7 when the
 *   place is in a category the query names (its name in English or the country's languages, an alias, an
 *   everyday word); 0.5 when the query is only a search term of its category; 0.6 when it is of a chain the
 *   query names; 0.3 when it is of the kind of such a chain (a café for "Starbucks");
 * - nearness is 1 km / (1 km + distance): 1 at the origin, ½ at 1 km, ¼ at 3 km; 0 without an origin;
 * - quality is (popularity + rating / 10) / 2, both 0 when unknown.
 */
function relevance(p: Params, plan: SearchPlan, origin: string | undefined): string {
  const q = p.add(plan.query!.toLowerCase());
  const meaning = plan.meaning;
  const text = [`0.4 * similarity(${q}, lower(name)) + 0.6 * word_similarity(${q}, lower(name))`];
  if (meaning && meaning.strongCategoryIds.length > 0)
    text.push(
      `CASE WHEN fsq_category_ids && ${p.add(meaning.strongCategoryIds)}::text[] THEN 0.7 ELSE 0 END`,
    );
  if (meaning && meaning.weakCategoryIds.length > 0)
    text.push(`CASE WHEN fsq_category_ids && ${p.add(meaning.weakCategoryIds)}::text[] THEN 0.5 ELSE 0 END`);
  if (meaning && meaning.chainIds.length > 0)
    text.push(`CASE WHEN fsq_chain_ids && ${p.add(meaning.chainIds)}::text[] THEN 0.6 ELSE 0 END`);
  if (meaning && meaning.chainCategoryIds.length > 0)
    text.push(`CASE WHEN fsq_category_ids && ${p.add(meaning.chainCategoryIds)}::text[] THEN 0.3 ELSE 0 END`);
  const best = text.length === 1 ? text[0] : `greatest(${text.join(', ')})`;
  const near = origin ? ` + 0.3 * (1000 / (1000 + (pt <-> ${origin}::cube)))` : '';
  return `(0.6 * (${best})${near} + 0.05 * (coalesce(popularity, 0) + coalesce(rating, 0) / 10))::float8`;
}

/**
 * Which matches of `query` a statement reads: all of them, those matching it as written, or those matching it
 * only approximately (sort=RELEVANCE reads the second, then the third; see relevancePages).
 */
type MatchKind = 'all' | 'written' | 'approximate';

/**
 * What `query` matches as written, one condition per way of matching (any of them is a match): the search text
 * (name, category and chain names) holding it, the names of the chains the query names, and the categories it
 * names (by id, in the same GiST index as the point and the trigrams). Each is a condition that index decides.
 * sort=RELEVANCE around a point also matches the kind of a chain the query names (a café for "Starbucks",
 * ranked below the chain's own places): its walk reads a window of them, not every café of the area.
 */
function writtenArms(p: Params, plan: SearchPlan): string[] {
  const lower = plan.query!.toLowerCase();
  const arms = [`search_text LIKE ${p.add(likePattern(lower))}`];
  const meaning = plan.meaning;
  // A chain name that holds the query is matched by the first arm already.
  for (const name of meaning?.chainNames ?? [])
    if (!name.includes(lower)) arms.push(`search_text LIKE ${p.add(likePattern(name))}`);
  const kinds = (ids: readonly string[]) => {
    const safe = ids.filter((id) => SAFE_ID.test(id));
    if (safe.length > 0) arms.push(`${KINDS} @@ ${p.add(safe.map((id) => `'${id}'`).join(' | '))}::tsquery`);
  };
  kinds([...(meaning?.strongCategoryIds ?? []), ...(meaning?.weakCategoryIds ?? [])]);
  // Elsewhere not: every café of the city would be read and scored for "Starbucks" (130 ms at 1M places in
  // New York); the chain's places that match by text are still ranked with that term.
  if (plan.order === 'relevance' && plan.origin) kinds(meaning?.chainCategoryIds ?? []);
  return arms;
}

/**
 * What `query` matches: as written (writtenArms), or only approximately, the search text by trigram word
 * similarity (a typo, a missing accent).
 */
function queryMatch(p: Params, plan: SearchPlan, kind: MatchKind): string {
  const arms = writtenArms(p, plan);
  const written = `(${arms.join(' OR ')})`;
  if (kind === 'written') return written;
  const approximately = `${p.add(plan.query!.toLowerCase())} <% search_text`;
  if (kind === 'approximate') return `(${approximately} AND NOT ${written})`;
  return `(${[...arms, approximately].join(' OR ')})`;
}

interface Conditions {
  /** Where the places are: index conditions (the box) and their exact checks. */
  area: string[];
  /** Everything else. */
  filters: string[];
}

function conditions(
  p: Params,
  plan: SearchPlan,
  origin: string | undefined,
  match: MatchKind = 'all',
  openKindsRead = false,
): Conditions {
  const area: string[] = [];
  const filters: string[] = [];
  const box = areaBox(plan);
  if (box !== undefined) area.push(`pt <@ ${p.add(box)}::cube`);
  if (plan.circle) {
    const center =
      plan.origin && plan.circle.center === plan.origin ? origin! : p.add(pointLiteral(plan.circle.center));
    area.push(`(pt <-> ${center}::cube) <= ${p.add(chordFor(plan.circle.radius))}::float8`);
  }
  if (plan.rectangle) {
    const { ne, sw } = plan.rectangle;
    area.push(`latitude BETWEEN ${p.add(sw.latitude)}::float8 AND ${p.add(ne.latitude)}::float8`);
    const west = p.add(sw.longitude);
    const east = p.add(ne.longitude);
    area.push(
      sw.longitude <= ne.longitude
        ? `longitude BETWEEN ${west}::float8 AND ${east}::float8`
        : `(longitude >= ${west}::float8 OR longitude <= ${east}::float8)`,
    );
  }
  if (plan.query !== undefined) filters.push(queryMatch(p, plan, match));
  const roots = plan.categoryRoots ?? [];
  // The conditions on the search tokens (KINDS) are for places' own GiST index: after the walk of
  // places_open_kinds they would only be computed row by row, the exact checks deciding anyway.
  const tokens = area.length > 0 && !openKindsRead;
  const openKinds =
    tokens && plan.openNowAt !== undefined && roots.length > 0 && roots.every((id) => SAFE_ID.test(id));
  if (openKinds) {
    // Open now and of these kinds, inside the index in one token per category asked: a place open now is open
    // in the current UTC slot, and carries a token of that slot for each category it is of and each ancestor
    // of those (the exact checks of categories and hours follow).
    const hour = plan.openNowAt!.getUTCHours();
    area.push(
      `${KINDS} @@ ${p.add(roots.map((id) => `'${categorySlotToken(id, hour)}'`).join(' | '))}::tsquery`,
    );
  } else if (tokens && plan.categoryIds.length > 0 && plan.categoryIds.every((id) => SAFE_ID.test(id))) {
    // Inside the box, the index also knows each place's categories (a tsvector of its ids): the places of
    // other categories are passed over in the index, without reading their rows.
    const any = plan.categoryIds.map((id) => `'${id}'`).join(' | ');
    area.push(`${KINDS} @@ ${p.add(any)}::tsquery`);
  }
  if (plan.categoryIds.length > 0) {
    // Around a point, checking categories row by row on the places of the area beats intersecting with the
    // categories' GIN index (a common category holds a tenth of all places); `IS TRUE` keeps the planner from
    // choosing that index. Without a point, the GIN index is the way in.
    const overlap = `fsq_category_ids && ${p.add(plan.categoryIds)}::text[]`;
    filters.push(plan.origin ? `(${overlap}) IS TRUE` : overlap);
  }
  if (plan.chainIds.length > 0) filters.push(`fsq_chain_ids && ${p.add(plan.chainIds)}::text[]`);
  if (plan.excludeChainIds.length > 0)
    filters.push(`NOT (fsq_chain_ids && ${p.add(plan.excludeChainIds)}::text[])`);
  if (plan.excludeAllChains) filters.push(`fsq_chain_ids = '{}'`);
  if (plan.minPrice !== undefined) filters.push(`price >= ${p.add(plan.minPrice)}::int`);
  if (plan.maxPrice !== undefined) filters.push(`price <= ${p.add(plan.maxPrice)}::int`);
  if (tokens && plan.openNowAt && !openKinds) {
    // Inside the box, the index passes over the places closed in this 3-hour slot of the UTC day (a necessary
    // condition; the exact check on each place's own zone follows).
    area.push(`${KINDS} @@ ${p.add(`'${openSlotToken(plan.openNowAt.getUTCHours())}'`)}::tsquery`);
  }
  if (plan.openAtMinute !== undefined) filters.push(`open_week @> ${p.add(plan.openAtMinute)}::int`);
  // IS TRUE: the planner's guess for multirange containment is so small that it would read the whole area
  // rather than walk outwards from the point.
  if (plan.openNowAt)
    filters.push(`(open_week @> ${localMinute(p, plan, p.add(plan.openNowAt.toISOString()))}) IS TRUE`);
  return { area, filters };
}

/** The box around the search's area (the circle's or the rectangle's), for the GiST indexes; none without one. */
function areaBox(plan: SearchPlan): string | undefined {
  if (plan.circle) return circleBox(plan.circle.center, plan.circle.radius);
  if (plan.rectangle) return rectangleBox(plan.rectangle.ne, plan.rectangle.sw);
  return undefined;
}

/** The rows after a page's last one in the order `key`, ties by id (the cursor's key and id). */
function afterCondition(
  p: Params,
  key: { expr: string; dir: 'ASC' | 'DESC' },
  after: { key: number; id: string },
): string {
  const k = p.add(after.key);
  return `(${key.expr} ${key.dir === 'ASC' ? '>' : '<'} ${k}::float8 OR (${key.expr} = ${k}::float8 AND fsq_place_id > ${p.add(after.id)}))`;
}

/** Ids that are tsquery lexemes as they are (dataset and generated ids all are). */
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

const where = (list: readonly string[]) => (list.length > 0 ? `WHERE ${list.join('\n   AND ')}` : '');

export async function searchPlaces(db: Queryable, plan: SearchPlan): Promise<PlaceRow[]> {
  if (plan.order === 'distance' && plan.origin) return nearestPlaces(db, plan);
  if (plan.order === 'relevance' && plan.query !== undefined) return relevancePages(db, plan);
  return sortedPlaces(db, plan, 'all');
}

/**
 * sort=RELEVANCE around a point ranks the window of the nearest matches as written first: every match nearer
 * than the (window + 1)-th, the window being RELEVANCE_WINDOW or twice the page, whichever is more. Reading them
 * costs the same however dense the area (each way of matching walks the GiST index outwards to its own nearest
 * window + 1), where scoring every match of the circle cost ten times as much with ten times the places
 * (bench/places-search.ts at 10M). A farther match outranks the window's only with a far better name match or
 * popularity than its nearer rivals (nearness is 0.3 of the score); those are ranked, by the same score, after
 * the window. 50: the judged queries rank the same with 50, 100 or 200 (docs/places-relevance.md), and a full
 * window of 100 cost 1.4 times one of 50 at 10M places.
 */
export const RELEVANCE_WINDOW = 50;

/** The window of a search: the same on every page (the page size is part of the cursor's parameters). */
const windowOf = (plan: SearchPlan) => plan.window ?? Math.max(RELEVANCE_WINDOW, 2 * plan.limit);

/**
 * sort=RELEVANCE: the places matching the query as written, by score (around a point: the window of the
 * nearest, then the rest), then those matching it only approximately, by score (as search engines rank exact
 * matches before typo-tolerant ones). A page is read from the first set and, when that runs out, completed from
 * the next; a page starting in a later set (its cursor says which) reads only from there. The approximate arm
 * is the costly one (a trigram similarity check of every place of the area's index entries: half the time of
 * "market" around New York at 1M places), so most searches never run it.
 */
async function relevancePages(db: Queryable, plan: SearchPlan): Promise<PlaceRow[]> {
  if (plan.after?.tier === 'approximate') return approximateRows(db, plan);
  const rows: PlaceRow[] = [];
  if (!plan.origin) {
    rows.push(...(await sortedPlaces(db, plan, 'written')));
  } else {
    let edge: number | null;
    if (plan.after?.tier === 'beyond') {
      edge = await windowEdge(db, plan);
    } else {
      const page = await windowPage(db, plan);
      rows.push(...page.rows);
      edge = page.edge;
    }
    if (edge !== null && rows.length < plan.limit) {
      const after = plan.after?.tier === 'beyond' ? plan.after : undefined;
      const beyond = await sortedPlaces(
        db,
        { ...plan, limit: plan.limit - rows.length, after },
        'written',
        edge,
      );
      for (const row of beyond) row.tier = 'beyond';
      rows.push(...beyond);
    }
  }
  if (rows.length >= plan.limit) return rows;
  const rest = await approximateRows(db, { ...plan, limit: plan.limit - rows.length, after: undefined });
  return [...rows, ...rest];
}

/**
 * The walk of a window: for each way the query matches as written, the `size` + 1 nearest places matching it
 * (and every other filter), nearest first in the GiST index; merged, each place once. Its `size` + 1 nearest
 * rows are the area's `size` + 1 nearest matches: a match missing from its own arm's walk has that many nearer
 * matches before it.
 */
function windowWalk(p: Params, plan: SearchPlan, origin: string, size: number, columns: string): string {
  const { area, filters } = conditions(p, { ...plan, query: undefined }, origin);
  const count = p.add(size + 1);
  const walks = writtenArms(p, plan).map(
    (arm) => `(SELECT ${columns}, (pt <-> ${origin}::cube) AS chord
           FROM places
          WHERE ${[...area, arm].join('\n            AND ')}${filters.length > 0 ? `\n            AND booleq(${filters.join(' AND ')}, true)` : ''}
          ORDER BY pt <-> ${origin}::cube
          LIMIT ${count})`,
  );
  if (walks.length === 1) return walks[0]!;
  return `SELECT DISTINCT ON (fsq_place_id) * FROM (${walks.join('\n        UNION ALL ')}) arms ORDER BY fsq_place_id`;
}

/** The chord of the (size + 1)-th nearest match: matches at it or farther are beyond the window. */
const EDGE = (size: string) => `SELECT chord FROM walk ORDER BY chord OFFSET ${size} LIMIT 1`;

/**
 * A page of the window, by score, and the window's edge (null when the window holds every match of the area).
 * The page is left-joined to one row so that the edge is read even when the page is empty.
 */
async function windowPage(
  db: Queryable,
  plan: SearchPlan,
): Promise<{ rows: PlaceRow[]; edge: number | null }> {
  const p = new Params();
  const origin = p.add(pointLiteral(plan.origin!));
  const size = windowOf(plan);
  const key = sortKey('relevance', p, plan, origin);
  const walk = windowWalk(p, plan, origin, size, 'places.*');
  const after = plan.after ? `AND ${afterCondition(p, key, plan.after)}` : '';
  const columns = plan.fields ? placeColumnsFor(plan.fields) : PLACE_COLUMNS;
  const sql = `WITH walk AS MATERIALIZED (${walk}),
     edge AS (${EDGE(p.add(size))})
SELECT page.*, (SELECT chord FROM edge) AS window_edge
  FROM (SELECT 1) one
  LEFT JOIN (SELECT ${columns}, chord, ${key.expr} AS sort_key
               FROM walk
              WHERE chord < coalesce((SELECT chord FROM edge), 'Infinity'::float8) ${after}
              ORDER BY sort_key DESC, fsq_place_id
              LIMIT ${p.add(plan.limit)}) page ON true`;
  const { rows } = await db.query<PlaceRow & { window_edge: number | null }>(sql, p.values, {
    prepare: true,
    bitmapScans: false,
  });
  const edge = rows[0]?.window_edge ?? null;
  const page = rows.filter((row) => row.fsq_place_id !== null);
  for (const row of page) delete (row as Partial<typeof row>).window_edge;
  return { rows: page, edge };
}

/** The window's edge alone, for a page that starts beyond it. */
async function windowEdge(db: Queryable, plan: SearchPlan): Promise<number | null> {
  const p = new Params();
  const origin = p.add(pointLiteral(plan.origin!));
  const size = windowOf(plan);
  const walk = windowWalk(p, plan, origin, size, 'fsq_place_id');
  const sql = `WITH walk AS MATERIALIZED (${walk}) ${EDGE(p.add(size))}`;
  const { rows } = await db.query<{ chord: number }>(sql, p.values, { prepare: true, bitmapScans: false });
  return rows[0]?.chord ?? null;
}

async function approximateRows(db: Queryable, plan: SearchPlan): Promise<PlaceRow[]> {
  const rows = await sortedPlaces(db, plan, 'approximate');
  for (const row of rows) row.tier = 'approximate';
  return rows;
}

/** Every match of the area, sorted; with `from`, only those at that chord from the origin or farther. */
async function sortedPlaces(
  db: Queryable,
  plan: SearchPlan,
  match: MatchKind,
  from?: number,
): Promise<PlaceRow[]> {
  const p = new Params();
  const origin = plan.origin ? p.add(pointLiteral(plan.origin)) : undefined;
  const { area, filters } = conditions(p, plan, origin, match);
  if (from !== undefined && origin) filters.push(`(pt <-> ${origin}::cube) >= ${p.add(from)}::float8`);
  const key = sortKey(plan.order, p, plan, origin);
  if (plan.after) filters.push(afterCondition(p, key, plan.after));
  const columns = plan.fields ? placeColumnsFor(plan.fields) : PLACE_COLUMNS;
  const sql = `SELECT ${columns}, ${origin ? `(pt <-> ${origin}::cube)` : 'NULL::float8'} AS chord,
       ${key.expr} AS sort_key
  FROM places
 ${where([...area, ...filters])}
 ORDER BY ${key.expr} ${key.dir}, fsq_place_id
 LIMIT ${p.add(plan.limit)}`;
  // Searches within an area are prepared statements (parsed once; PostgreSQL keeps one generic plan when it is
  // as good as the per-call ones, and the area's GiST index is the way in whatever the values). Searches
  // without an area are planned per call: their best plan depends on how rare the text is.
  const { rows } = await db.query<PlaceRow>(sql, p.values, { prepare: area.length > 0 });
  return rows;
}

/**
 * Nearest first, ties by id. KNN yields places in distance order but ties in any order, so `fetch` rows are
 * read; when the last of them is as far as the last place of the page, places at that distance may be missing
 * and the walk is repeated with four times as many rows. Places share a distance only when they share a point.
 */
async function nearestPlaces(db: Queryable, plan: SearchPlan): Promise<PlaceRow[]> {
  let fetch = plan.limit + 1;
  for (;;) {
    const rows = await nearestQuery(db, plan, fetch);
    if (rows.length < fetch) return rows.slice(0, plan.limit);
    const lastKept = rows[plan.limit - 1]?.chord;
    const lastRead = rows[rows.length - 1]!.chord;
    if (lastKept === undefined || lastKept === null || lastRead === null || lastRead === undefined)
      return rows.slice(0, plan.limit);
    if (lastRead > lastKept) return rows.slice(0, plan.limit);
    fetch *= 4;
  }
}

async function nearestQuery(db: Queryable, plan: SearchPlan, fetch: number): Promise<PlaceRow[]> {
  const p = new Params();
  const origin = p.add(pointLiteral(plan.origin!));
  const open = openKindsWalk(p, plan, origin);
  const { area, filters } = conditions(p, plan, origin, 'all', open !== undefined);
  if (plan.after) filters.push(afterCondition(p, { expr: 'chord', dir: 'ASC' }, plan.after));
  // Only plain columns inside the walk (computed columns would be computed for every row it reads).
  const columns = plan.fields ? placeColumnsFor(plan.fields) : PLACE_COLUMNS;
  // The walk of places_open_kinds yields ids nearest first, each place read by its key (LATERAL: one at a time,
  // in that order); the area's exact checks and the other filters follow on the place's row.
  const walk = open
    ? `(SELECT place.*, open.chord
          FROM (SELECT * FROM (${open}) open ORDER BY chord OFFSET 0) open,
               LATERAL (SELECT * FROM places WHERE places.fsq_place_id = open.fsq_place_id) place
         WHERE booleq(${area.join(' AND ')}, true)) walk`
    : `(SELECT places.*, (pt <-> ${origin}::cube) AS chord
                  FROM places
                 ${where(area)}
                 ORDER BY pt <-> ${origin}::cube
                OFFSET 0) walk`;
  const sql = `SELECT ${columns}, chord, chord AS sort_key
  FROM (SELECT *
          FROM ${walk}
         ${filters.length > 0 ? `WHERE booleq(${filters.join('\n   AND ')}, true)` : ''}
         LIMIT ${p.add(fetch)}) nearest
 ORDER BY chord, fsq_place_id`;
  // Without bitmap scans: PostgreSQL's estimate of the box's places (a constant 0.001 of the table, fewer with
  // the category and open-slot conditions) can have it read and sort every match of a large city's box instead
  // of walking outwards to the page's first dozen (seen around New York at 1M places on 27 November: 875
  // buffers and 9.5 ms against 105 and 0.9 ms).
  const { rows } = await db.query<PlaceRow>(sql, p.values, { prepare: true, bitmapScans: false });
  return rows;
}

/**
 * `category + open_now` nearest first, for one category asked: the walks of places_open_kinds (migrations 0018,
 * 0019) outwards from the origin, merged nearest first. Its index holds each place of that kind (or of a kind
 * below it) with the minutes of the UTC day it is open on some day and the arc of the UTC week it is open in, so
 * places closed at this time of day, or in their longest closure of the week, are passed over inside the index;
 * the rows that pass are checked exactly on their zone and week (open_week, copied there). A span's day starts
 * within the day and may run past midnight, its week likewise past the week's end: it holds now if it holds the
 * minute of the day now or that plus 1440, and the minute of the week now or that plus 10080 — one walk for each
 * of the four (no span holds both of either). The distance in the span's five dimensions is the chord, the times
 * being inside it. Undefined where this does not apply.
 */
function openKindsWalk(p: Params, plan: SearchPlan, origin: string): string | undefined {
  const roots = plan.categoryRoots ?? [];
  const box = areaBox(plan);
  if (plan.openNowAt === undefined || roots.length !== 1 || box === undefined) return undefined;
  const kind = p.add(openKind(roots[0]!));
  const area = p.add(box);
  const local = localMinute(p, plan, p.add(plan.openNowAt.toISOString()));
  const at = plan.openNowAt;
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  const ofWeek = utcMinuteOfWeek(at);
  const walk = (day: number, week: number) => {
    const [d, w] = [p.add(day), p.add(week)];
    const point = `cube(cube(${origin}::cube, ${d}::float8), ${w}::float8)`;
    return `(SELECT fsq_place_id, span <-> ${point} AS chord
           FROM places_open_kinds
          WHERE kind = ${kind}::int
            AND span && cube(cube(${area}::cube, ${d}::float8, ${d}::float8), ${w}::float8, ${w}::float8)
            AND (open_week @> ${local}) IS TRUE
          ORDER BY span <-> ${point})`;
  };
  return [
    walk(minute, ofWeek),
    walk(minute + 1440, ofWeek),
    walk(minute, ofWeek + MINUTES_PER_WEEK),
    walk(minute + 1440, ofWeek + MINUTES_PER_WEEK),
  ].join('\n         UNION ALL ');
}
