import { readFileSync } from 'node:fs';
import type { Queryable } from '@cairn/kit';
import { chordFor } from '../../src/data/earth.ts';
import type { Gazetteer } from '../../src/reference/cities.ts';
import { hexId } from '../../src/reference/ids.ts';
import { normalizeName } from '../../src/reference/normalize.ts';
import type { Reference } from '../../src/reference/reference.ts';
import { circleBox, pointLiteral } from '../../src/search/plan.ts';

/**
 * The judged query set (judged.json, rules in README.md) and its scoring: each query is searched around its
 * city's centre with sort=RELEVANCE; each of the first 10 results gets a grade (0–3) from the query's rules;
 * nDCG@10 compares that list with the best order of the places the data holds in the search circle.
 * Grades follow criteria (category, distance, chain, name), not place ids, since the data is generated.
 */
export interface CategoryQuery {
  id: string;
  family: string;
  city: string;
  query: string;
  /** Preset ids (with their descendants) that are what the query asks for. */
  want: string[];
  /** Preset ids of places that would do at a pinch (grade 1 within 3 km). */
  related?: string[];
}
export interface ChainQuery {
  id: string;
  family: string;
  city: string;
  query: string;
  /** The chain's name: its places are grade 3 anywhere in the circle. */
  chain: string;
  related?: string[];
}
export interface NameQuery {
  id: string;
  family: string;
  city: string;
  /** The query is the name of the (nameOf+1)-th most popular place within 2 km of the centre. */
  nameOf: number;
}
export type JudgedQuery = CategoryQuery | ChainQuery | NameQuery;

export const RADIUS = 5000;

export function loadJudged(): JudgedQuery[] {
  const file = JSON.parse(readFileSync(new URL('./judged.json', import.meta.url), 'utf8')) as {
    queries: JudgedQuery[];
  };
  return file.queries;
}

interface Candidate {
  id: string;
  name: string;
  categoryIds: string[];
  chainIds: string[];
  popularity: number;
  /** Metres from the centre. */
  distance: number;
}

const compact = (text: string) => normalizeName(text).replace(/ /g, '');

/** Grade 0–3 of one place for one query (README.md states the same rules). */
function grader(q: JudgedQuery, reference: Reference, target: Candidate | undefined) {
  const idsOf = (presets: readonly string[] | undefined) =>
    new Set((presets ?? []).flatMap((p) => reference.withDescendants(hexId('category', p))));
  const related = idsOf('related' in q ? q.related : undefined);
  const isRelated = (c: Candidate) => c.distance <= 3000 && c.categoryIds.some((id) => related.has(id));
  if ('nameOf' in q) {
    const name = normalizeName(target?.name ?? '');
    const words = name.split(' ').filter((w) => w !== '');
    return (c: Candidate) => {
      if (!target) return 0;
      if (c.id === target.id) return 3;
      const other = normalizeName(c.name);
      if (other === name) return 2;
      const own = new Set(other.split(' '));
      return words.length > 0 && words.every((w) => own.has(w)) ? 1 : 0;
    };
  }
  if ('chain' in q) {
    const key = compact(q.chain);
    const chainIds = new Set(
      [...reference.chains.values()].filter((c) => compact(c.name) === key).map((c) => c.id),
    );
    return (c: Candidate) => (c.chainIds.some((id) => chainIds.has(id)) ? 3 : isRelated(c) ? 1 : 0);
  }
  const want = idsOf(q.want);
  return (c: Candidate) => {
    const wanted = c.categoryIds.some((id) => want.has(id));
    if (wanted && c.distance <= 1000) return 3;
    if (wanted && c.distance <= 3000) return 2;
    if (wanted || isRelated(c)) return 1;
    return 0;
  };
}

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

/** Every place within RADIUS of the centre: the pool the ideal ordering is drawn from. */
async function candidates(db: Queryable, center: { latitude: number; longitude: number }) {
  const { rows } = await db.query<{
    fsq_place_id: string;
    name: string;
    latitude: number;
    longitude: number;
    fsq_category_ids: string[];
    fsq_chain_ids: string[];
    popularity: number | null;
  }>(
    `SELECT fsq_place_id, name, latitude, longitude, fsq_category_ids, fsq_chain_ids, popularity::float8 AS popularity
       FROM places
      WHERE pt <@ $1::cube AND (pt <-> $2::cube) <= $3::float8`,
    [circleBox(center, RADIUS), pointLiteral(center), chordFor(RADIUS)],
  );
  return rows.map(
    (r): Candidate => ({
      id: r.fsq_place_id,
      name: r.name,
      categoryIds: r.fsq_category_ids,
      chainIds: r.fsq_chain_ids,
      popularity: r.popularity ?? 0,
      distance: haversine(center.latitude, center.longitude, r.latitude, r.longitude),
    }),
  );
}

const dcg = (grades: readonly number[]) =>
  grades.slice(0, 10).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);

export interface Judgement {
  id: string;
  family: string;
  city: string;
  query: string;
  /** nDCG@10; undefined when no place in the circle has a grade above 0 (nothing to find). */
  ndcg: number | undefined;
  grades: number[];
  ideal: number[];
  names: string[];
}

export interface JudgeContext {
  db: Queryable;
  reference: Reference;
  gazetteer: Gazetteer;
  /** GET /places/search with these parameters; the results' bodies. */
  search(params: Record<string, string>): Promise<Record<string, unknown>[]>;
}

export async function judge(ctx: JudgeContext, q: JudgedQuery): Promise<Judgement> {
  const city = ctx.gazetteer.resolve(q.city);
  if (!city) throw new Error(`judged query ${q.id}: unknown city ${q.city}`);
  const center = { latitude: city.latitude, longitude: city.longitude };
  const pool = await candidates(ctx.db, center);
  let target: Candidate | undefined;
  if ('nameOf' in q) {
    target = pool
      .filter((c) => c.distance <= 2000)
      .sort((a, b) => b.popularity - a.popularity || (a.id < b.id ? -1 : 1))[q.nameOf];
  }
  const text = 'nameOf' in q ? (target?.name ?? '') : q.query;
  const grade = grader(q, ctx.reference, target);
  const ideal = pool
    .map(grade)
    .sort((a, b) => b - a)
    .slice(0, 10);
  const results =
    text === ''
      ? []
      : await ctx.search({
          query: text,
          ll: `${center.latitude},${center.longitude}`,
          radius: String(RADIUS),
          limit: '10',
        });
  const byId = new Map(pool.map((c) => [c.id, c]));
  const grades = results.map((r) => {
    const c = byId.get(r.fsq_place_id as string);
    return c ? grade(c) : 0;
  });
  const best = dcg(ideal);
  return {
    id: q.id,
    family: q.family,
    city: q.city,
    query: text,
    ndcg: best > 0 ? dcg(grades) / best : undefined,
    grades,
    ideal,
    names: results.map((r) => r.name as string),
  };
}

/** Mean nDCG@10 of the judgements that had something to find, overall and per family. */
export function summarize(judgements: readonly Judgement[]) {
  const scored = judgements.filter((j) => j.ndcg !== undefined);
  const mean = (list: readonly Judgement[]) =>
    list.length === 0 ? 0 : list.reduce((s, j) => s + j.ndcg!, 0) / list.length;
  const families = [...new Set(scored.map((j) => j.family))].sort();
  return {
    overall: mean(scored),
    scored: scored.length,
    nothingToFind: judgements.length - scored.length,
    families: families.map((family) => {
      const list = scored.filter((j) => j.family === family);
      return { family, ndcg: mean(list), queries: list.length };
    }),
    worst: [...scored].sort((a, b) => a.ndcg! - b.ndcg!).slice(0, 10),
  };
}
