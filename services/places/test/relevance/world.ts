import { readFileSync } from 'node:fs';
import type { Queryable } from '@cairn/kit';
import { chordFor } from '../../src/data/earth.ts';
import type { Gazetteer } from '../../src/reference/cities.ts';
import { hexId } from '../../src/reference/ids.ts';
import { normalizeName } from '../../src/reference/normalize.ts';
import type { Reference } from '../../src/reference/reference.ts';
import { circleBox, pointLiteral } from '../../src/search/plan.ts';

/**
 * The multilingual judged set (world.json; rules in docs/places-relevance.md, "The world set"): everyday
 * queries in the city's language, searched with `near=` as people write the city, judged by rules that do not
 * look at the ranking — a place is relevant when its category is one the query's kind wants (or it is of the
 * named chain) and it is in the city (within CITY_RADIUS of the gazetteer's centre of the judged city, which is
 * named apart from the `near` text, so a wrong geocode is a miss). Scores: P@5 and nDCG@10.
 */
export interface WorldQuery {
  id: string;
  /** The gazetteer's key of the city judged ("Tokyo, JP"). */
  city: string;
  country: string;
  /** The language the query is written in (world.json's words; zh-Hant apart from zh). */
  language: string;
  /** `near` as sent ("東京", "New York, NY"). */
  near: string;
  query: string;
  /** The kind asked for (world.json's kinds: "pizza", "fuel" …), or "chain". */
  kind: string;
  /** Preset ids (with descendants) of what a category query asks for. */
  want?: string[];
  /** The brand a chain query names, as the chain table spells it. */
  chain?: string;
}

interface WorldFile {
  kinds: Record<string, string[]>;
  defaultKinds: string[];
  words: Record<string, Record<string, string>>;
  cities: {
    city: string;
    near: string;
    language: string;
    extra: string[];
    words?: Record<string, string>;
    chains?: Record<string, string>;
  }[];
}

/** "In the city": within this distance of the judged city's centre. */
export const CITY_RADIUS = 10_000;

export function loadWorld(): WorldQuery[] {
  const file = JSON.parse(readFileSync(new URL('./world.json', import.meta.url), 'utf8')) as WorldFile;
  const out: WorldQuery[] = [];
  for (const c of file.cities) {
    const country = c.city.split(', ').at(-1)!;
    const base = { city: c.city, country, language: c.language, near: c.near };
    const slug = c.city.split(',')[0]!.toLowerCase().replace(/\W+/g, '-');
    for (const kind of [...file.defaultKinds, ...c.extra]) {
      const query = c.words?.[kind] ?? file.words[c.language]?.[kind];
      if (!query) throw new Error(`world.json: no ${c.language} word for ${kind} (${c.city})`);
      out.push({ ...base, id: `${slug}-${kind.replace(/ /g, '-')}`, query, kind, want: file.kinds[kind]! });
    }
    for (const [query, chain] of Object.entries(c.chains ?? {}))
      out.push({ ...base, id: `${slug}-chain-${normalizeName(chain)}`, query, kind: 'chain', chain });
  }
  return out;
}

interface Candidate {
  id: string;
  categoryIds: string[];
  chainIds: string[];
  distance: number;
}

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

/** Every place in the city: the pool relevance is decided over. */
async function cityPlaces(db: Queryable, center: { latitude: number; longitude: number }) {
  const { rows } = await db.query<{
    fsq_place_id: string;
    latitude: number;
    longitude: number;
    fsq_category_ids: string[];
    fsq_chain_ids: string[];
  }>(
    `SELECT fsq_place_id, latitude, longitude, fsq_category_ids, fsq_chain_ids FROM places
      WHERE pt <@ $1::cube AND (pt <-> $2::cube) <= $3::float8`,
    [circleBox(center, CITY_RADIUS), pointLiteral(center), chordFor(CITY_RADIUS)],
  );
  return rows.map(
    (r): Candidate => ({
      id: r.fsq_place_id,
      categoryIds: r.fsq_category_ids,
      chainIds: r.fsq_chain_ids,
      distance: haversine(center.latitude, center.longitude, r.latitude, r.longitude),
    }),
  );
}

const compact = (text: string) => normalizeName(text).replace(/ /g, '');

/** Whether a place in the city is what the query asks for. */
function relevance(q: WorldQuery, reference: Reference): (c: Candidate) => boolean {
  if (q.chain) {
    const key = compact(q.chain);
    const named = [...reference.chains.values()].filter((c) => compact(c.name) === key);
    const brands = new Set(named.map((c) => c.wikidata).filter((w) => w));
    const ids = new Set(
      [...reference.chains.values()]
        .filter((c) => compact(c.name) === key || (c.wikidata && brands.has(c.wikidata)))
        .map((c) => c.id),
    );
    return (c) => c.chainIds.some((id) => ids.has(id));
  }
  const want = new Set((q.want ?? []).flatMap((p) => reference.withDescendants(hexId('category', p))));
  return (c) => c.categoryIds.some((id) => want.has(id));
}

/** nDCG's grade of a relevant place: nearer the centre is better (3 within 1 km, 2 within 3 km, else 1). */
const gradeOf = (c: Candidate) => (c.distance <= 1000 ? 3 : c.distance <= 3000 ? 2 : 1);

const dcg = (grades: readonly number[]) =>
  grades.slice(0, 10).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);

export interface WorldJudgement {
  query: WorldQuery;
  /** Relevant places in the city; 0: nothing to find, left out of the means. */
  relevant: number;
  /** Relevant results in the first 5 over min(5, relevant). */
  p5: number;
  ndcg: number;
  /** Per result: relevant or not. */
  hits: boolean[];
  names: string[];
  /** The error of a refused search (a `near` that did not geocode): an empty answer, so a miss. */
  error?: string;
}

export interface WorldContext {
  db: Queryable;
  reference: Reference;
  gazetteer: Gazetteer;
  /** GET /places/search; the status and body. */
  search(params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
}

export async function judgeWorld(ctx: WorldContext, q: WorldQuery): Promise<WorldJudgement> {
  const city = ctx.gazetteer.resolve(q.city);
  if (!city) throw new Error(`world query ${q.id}: unknown city ${q.city}`);
  const pool = await cityPlaces(ctx.db, city);
  const isRelevant = relevance(q, ctx.reference);
  const relevantPlaces = pool.filter(isRelevant);
  const { status, body } = await ctx.search({ query: q.query, near: q.near, limit: '10' });
  const results = status === 200 ? ((body.results ?? []) as Record<string, unknown>[]) : [];
  const byId = new Map(pool.map((c) => [c.id, c]));
  const found = results.map((r) => byId.get(r.fsq_place_id as string));
  const hits = found.map((c) => c !== undefined && isRelevant(c));
  const ideal = relevantPlaces
    .map(gradeOf)
    .sort((a, b) => b - a)
    .slice(0, 10);
  const grades = found.map((c, i) => (c && hits[i] ? gradeOf(c) : 0));
  const top5 = hits.slice(0, 5).filter(Boolean).length;
  return {
    query: q,
    relevant: relevantPlaces.length,
    p5: relevantPlaces.length === 0 ? 0 : top5 / Math.min(5, relevantPlaces.length),
    ndcg: ideal.length === 0 ? 0 : dcg(grades) / dcg(ideal),
    hits,
    names: results.map((r) => r.name as string),
    ...(status !== 200 ? { error: `${status} ${String(body.message ?? '')}` } : {}),
  };
}

export interface WorldGroup {
  key: string;
  p5: number;
  ndcg: number;
  queries: number;
}

/** Means of P@5 and nDCG@10 over the judgements with something to find, grouped by `by`. */
export function groupWorld(
  judgements: readonly WorldJudgement[],
  by: (j: WorldJudgement) => string,
): WorldGroup[] {
  const groups = new Map<string, WorldJudgement[]>();
  for (const j of judgements) {
    if (j.relevant === 0) continue;
    const list = groups.get(by(j)) ?? [];
    list.push(j);
    groups.set(by(j), list);
  }
  const mean = (list: WorldJudgement[], f: (j: WorldJudgement) => number) =>
    list.reduce((s, j) => s + f(j), 0) / list.length;
  return [...groups]
    .map(([key, list]) => ({
      key,
      p5: mean(list, (j) => j.p5),
      ndcg: mean(list, (j) => j.ndcg),
      queries: list.length,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
