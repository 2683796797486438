import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { hexId } from './ids.ts';
import type { TaxonomyEntry } from './taxonomy.ts';

/**
 * Chains, from the brands of the name-suggestion-index (BSD-3-Clause): each brand becomes a chain with a
 * stable id, placed under the most specific category whose preset tags it carries, with the countries it
 * operates in (ISO 3166-1 codes of its locationSet; "001" is the world).
 */
export interface Chain {
  id: string;
  name: string;
  categoryIds: string[];
  countries: string[];
  wikidata: string | null;
  sourceId: string;
}

interface NsiItem {
  id: string;
  displayName: string;
  locationSet?: { include?: unknown[] };
  tags?: Record<string, string>;
}

interface NsiFile {
  nsi: Record<string, { items: NsiItem[] }>;
}

function countriesOf(item: NsiItem): string[] {
  const out = new Set<string>();
  for (const code of item.locationSet?.include ?? []) {
    if (typeof code !== 'string') continue;
    if (code === '001') out.add('001');
    else if (/^[a-z]{2}(-|$)/i.test(code) && !code.endsWith('.geojson'))
      out.add(code.slice(0, 2).toUpperCase());
  }
  return [...out].sort();
}

/** The most specific entry whose preset tags all appear in `tags`. */
function categoryFor(
  tags: Record<string, string>,
  byTag: Map<string, TaxonomyEntry[]>,
): TaxonomyEntry | undefined {
  let best: TaxonomyEntry | undefined;
  let bestSize = 0;
  for (const [k, v] of Object.entries(tags)) {
    for (const entry of byTag.get(`${k}=${v}`) ?? []) {
      const required = Object.entries(entry.tags);
      if (required.length > bestSize && required.every(([rk, rv]) => tags[rk] === rv)) {
        best = entry;
        bestSize = required.length;
      }
    }
  }
  return best;
}

export function buildChains(taxonomy: readonly TaxonomyEntry[]): Chain[] {
  // The package's exports map names no JSON file, so we find it beside its entry point (dist/js/nsi.cjs).
  const entry = createRequire(import.meta.url).resolve('name-suggestion-index');
  const nsi = JSON.parse(readFileSync(join(dirname(entry), '..', 'json', 'nsi.min.json'), 'utf8')) as NsiFile;
  const byTag = new Map<string, TaxonomyEntry[]>();
  for (const entry of taxonomy) {
    for (const [k, v] of Object.entries(entry.tags)) {
      if (v === '*') continue;
      const list = byTag.get(`${k}=${v}`) ?? [];
      list.push(entry);
      byTag.set(`${k}=${v}`, list);
    }
  }
  const chains: Chain[] = [];
  const seen = new Set<string>();
  for (const [path, file] of Object.entries(nsi.nsi)) {
    if (!path.startsWith('brands/')) continue;
    for (const item of file.items) {
      const tags = item.tags ?? {};
      const category = categoryFor(tags, byTag);
      const countries = countriesOf(item);
      if (!category || countries.length === 0) continue;
      const id = hexId('chain', item.id);
      if (seen.has(id)) continue;
      seen.add(id);
      chains.push({
        id,
        name: item.displayName,
        categoryIds: [category.id],
        countries,
        wikidata: tags['brand:wikidata'] ?? null,
        sourceId: item.id,
      });
    }
  }
  return chains;
}
