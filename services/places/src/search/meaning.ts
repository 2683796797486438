import type { Chain } from '../reference/chains.ts';
import type { City } from '../reference/cities.ts';
import { normalizeName } from '../reference/normalize.ts';
import type { Reference } from '../reference/reference.ts';
import { categoriesNamed, languagesOf, termLanguages } from '../reference/search-terms.ts';
import type { LatLng } from './params.ts';

/**
 * What a text query means besides the words of a name: the categories it names (in English and in the
 * languages of the country searched in: "coffee", "café", "kaffee" → Cafe; "pharmacie", "Apotheke" →
 * Pharmacy) and the chains it names ("starbucks", "mcdonalds" → McDonald's). Worked out here, before SQL, so
 * that the query stays a text match or a category-id match, both answered inside the area's index.
 */
export interface QueryMeaning {
  /** Categories the query names (their name, an alias or an everyday word), with their descendants. */
  strongCategoryIds: string[];
  /** Categories for which the query is only a search term ("tea" → Cafe). */
  weakCategoryIds: string[];
  /** Chains whose name is the query, ignoring case, accents, spaces and punctuation. */
  chainIds: string[];
  /** Those chains' categories, with their descendants, less the ones above: where no place of the chain is near,
   * a place of its kind will do ("Starbucks" → cafés). */
  chainCategoryIds: string[];
  /** Those chains' names, lower-cased, as the places' search text has them. */
  chainNames: string[];
}

/** "pharmacies" → "pharmacy", "cafes" → "cafe", "bars" → "bar": the forms of a query looked up in the table. */
function forms(key: string): string[] {
  const out = [key];
  if (key.length > 4 && key.endsWith('ies')) out.push(`${key.slice(0, -3)}y`);
  if (key.length > 4 && /(s|x|z|ch|sh)es$/.test(key)) out.push(key.slice(0, -2));
  if (key.length > 3 && key.endsWith('s') && !key.endsWith('ss')) out.push(key.slice(0, -1));
  return out;
}

const compact = (text: string) => normalizeName(text).replace(/ /g, '');

interface ChainIndex {
  byName: Map<string, Chain[]>;
  /** By the first word of a name of several words: "pret" → Pret A Manger, "cvs" → CVS Pharmacy. */
  byFirstWord: Map<string, Chain[]>;
  byWikidata: Map<string, Chain[]>;
}

const chainIndexes = new WeakMap<Reference, ChainIndex>();

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/**
 * The chains named so, and the same brands under other names (one Wikidata item: 7-Eleven, セブン-イレブン).
 * With `byFirstWord`, a one-word query that names no chain whole names the chains whose first word it is, as
 * people shorten them ("Pret", "CVS").
 */
function chainsNamed(reference: Reference, key: string, byFirstWord: boolean): Chain[] {
  let index = chainIndexes.get(reference);
  if (!index) {
    index = { byName: new Map(), byFirstWord: new Map(), byWikidata: new Map() };
    for (const chain of reference.chains.values()) {
      const name = compact(chain.name);
      if (name !== '') push(index.byName, name, chain);
      const words = normalizeName(chain.name).split(' ');
      if (words.length > 1 && words[0]!.length >= 3) push(index.byFirstWord, words[0]!, chain);
      if (chain.wikidata) push(index.byWikidata, chain.wikidata, chain);
    }
    chainIndexes.set(reference, index);
  }
  let named = index.byName.get(key) ?? [];
  if (named.length === 0 && byFirstWord) named = index.byFirstWord.get(key) ?? [];
  const brands = new Set(named.map((c) => c.wikidata).filter((w): w is string => w !== null));
  return [...new Set([...named, ...[...brands].flatMap((w) => index.byWikidata.get(w) ?? [])])];
}

export function meaningOf(
  query: string,
  reference: Reference,
  languages: readonly string[] | undefined,
): QueryMeaning {
  const key = normalizeName(query);
  const strength = new Map<string, number>();
  if (key !== '') {
    const langs = languages ? new Set(['en', ...languages]) : termLanguages();
    for (const form of forms(key)) {
      for (const [id, s] of categoriesNamed(form, langs)) {
        if (!reference.categories.has(id)) continue;
        for (const d of reference.withDescendants(id)) strength.set(d, Math.max(strength.get(d) ?? 0, s));
      }
    }
  }
  // A shortened chain name only when the query is one word that names no category ("Pret", not "burger").
  const shortened = !key.includes(' ') && ![...strength.values()].includes(2);
  const chains = key === '' ? [] : chainsNamed(reference, key.replace(/ /g, ''), shortened);
  const chainCategoryIds = new Set(
    chains.flatMap((c) => c.categoryIds.flatMap((id) => reference.withDescendants(id))),
  );
  for (const id of strength.keys()) chainCategoryIds.delete(id);
  return {
    strongCategoryIds: [...strength].filter(([, s]) => s === 2).map(([id]) => id),
    weakCategoryIds: [...strength].filter(([, s]) => s === 1).map(([id]) => id),
    chainIds: chains.map((c) => c.id),
    chainCategoryIds: [...chainCategoryIds],
    chainNames: [...new Set(chains.map((c) => c.name.toLowerCase()))],
  };
}

/**
 * The languages of the country being searched: the `near` city's, or that of the gazetteer city nearest to the
 * point (within about a degree). Undefined when no country is known: then every language's terms apply.
 */
export function languagesNear(
  cities: readonly City[],
  near: City | undefined,
  point: LatLng | undefined,
): readonly string[] | undefined {
  const country = near?.country ?? (point ? nearestCity(cities, point)?.country : undefined);
  if (!country) return undefined;
  const languages = languagesOf(country);
  return languages.length > 0 ? languages : undefined;
}

const grids = new WeakMap<readonly City[], Map<string, City[]>>();
const cell = (lat: number, lon: number) => `${Math.floor(lat)},${Math.floor(lon)}`;

function nearestCity(cities: readonly City[], point: LatLng): City | undefined {
  let grid = grids.get(cities);
  if (!grid) {
    grid = new Map();
    for (const c of cities) {
      const k = cell(c.latitude, c.longitude);
      const list = grid.get(k) ?? [];
      list.push(c);
      grid.set(k, list);
    }
    grids.set(cities, grid);
  }
  let best: City | undefined;
  let bestDistance = Infinity;
  const scale = Math.cos((point.latitude * Math.PI) / 180) ** 2;
  for (let dLat = -1; dLat <= 1; dLat++) {
    for (let dLon = -1; dLon <= 1; dLon++) {
      for (const c of grid.get(cell(point.latitude + dLat, point.longitude + dLon)) ?? []) {
        const d = (c.latitude - point.latitude) ** 2 + (c.longitude - point.longitude) ** 2 * scale;
        if (d < bestDistance) {
          best = c;
          bestDistance = d;
        }
      }
    }
  }
  return best;
}
