import type { PlacesDeps } from '../deps.ts';
import { mediaForFields } from '../media/endpoints.ts';
import { normalizeName } from '../reference/normalize.ts';
import { AUTOCOMPLETE_TYPES, type AutocompleteQueryValues } from '../routes/schemas.ts';
import { placesByNamePrefix } from '../store/places-read.ts';
import { parseFields } from './fields.ts';
import { languagesNear, meaningOf } from './meaning.ts';
import { type LatLng, parseLatLng } from './params.ts';
import { renderPlace } from './render.ts';

/**
 * `GET /autocomplete`: suggestions for 3+ characters of text, of three types: places (by name, nearest to
 * `ll` first), searches (categories the text names — search-terms.json — then categories and chains whose names
 * start with the text) and geo (cities of the
 * gazetteer, most populous first). `ll` and `radius` bias the places; they never exclude.
 */

function highlight(text: string, typed: string) {
  const at = text.toLowerCase().indexOf(typed.toLowerCase());
  return at < 0 ? [] : [{ start: at, length: typed.length }];
}

export async function autocomplete(deps: PlacesDeps, query: AutocompleteQueryValues) {
  const text = query.query.trim();
  const ll: LatLng | undefined = query.ll === undefined ? undefined : parseLatLng('ll', query.ll);
  const limit = query.limit ?? 10;
  const types = query.types === undefined ? AUTOCOMPLETE_TYPES : query.types.split(',').map((t) => t.trim());
  const fields = parseFields(query.fields);

  const reference = deps.reference();
  const now = deps.clock.now();
  const places: Record<string, unknown>[] = [];
  const searches: Record<string, unknown>[] = [];
  const geos: Record<string, unknown>[] = [];
  if (types.includes('place')) {
    const rows = await placesByNamePrefix(deps.db, text, ll, limit);
    const media = await mediaForFields(
      deps.db,
      rows.map((r) => r.fsq_place_id),
      fields,
    );
    for (const row of rows) {
      const secondary = [row.address, row.locality, row.country].filter(Boolean).join(', ');
      places.push({
        type: 'place',
        text: { primary: row.name, secondary, highlight: highlight(row.name, text) },
        link: `/places/${row.fsq_place_id}`,
        place: renderPlace(row, {
          reference,
          fields,
          now,
          publicUrl: deps.publicUrl,
          ...(media ? { media } : {}),
        }),
      });
    }
  }
  if (types.includes('search')) {
    const key = normalizeName(text);
    // The categories the text names in English or the languages around ll ("coffee", "Apotheke"), then those
    // whose English name starts with it.
    const named = meaningOf(text, reference, languagesNear(deps.gazetteer().cities, undefined, ll));
    const strong = new Set(named.strongCategoryIds);
    const categories = [
      ...new Set([
        ...[...strong]
          .map((id) => reference.categories.get(id)!)
          .filter((c) => c.level > 1 && !strong.has(c.parentId ?? '')),
        ...[...reference.categories.values()]
          .filter((c) => c.level > 1 && normalizeName(c.name).startsWith(key))
          .sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name)),
      ]),
    ].slice(0, 5);
    for (const c of categories) {
      // The category as the real taxonomy's, so its id goes straight back into fsq_category_ids.
      const real = reference.realCategory(c.id);
      searches.push({
        type: 'search',
        text: { primary: c.name, highlight: highlight(c.name, text) },
        search: {
          query: c.name,
          category: { fsq_category_id: real?.id ?? c.id, name: real?.name ?? c.name },
        },
      });
    }
    const chains = [...reference.chains.values()]
      .filter((c) => normalizeName(c.name).startsWith(key))
      .slice(0, 5);
    for (const c of chains) {
      searches.push({
        type: 'search',
        text: { primary: c.name, highlight: highlight(c.name, text) },
        search: { query: c.name, chain: { fsq_chain_id: c.id, name: c.name } },
      });
    }
  }
  if (types.includes('geo')) {
    for (const city of deps.gazetteer().startingWith(text, 5)) {
      const secondary = [city.region, city.country].filter(Boolean).join(', ');
      geos.push({
        type: 'geo',
        text: { primary: city.name, secondary, highlight: highlight(city.name, text) },
        geo: {
          name: city.name,
          center: { latitude: city.latitude, longitude: city.longitude },
          cc: city.country,
          type: 'city',
        },
      });
    }
  }
  // Every kind asked for has a share of the page: up to 3 searches and 2 places of the map, places for the rest.
  const searchShare = searches.slice(0, Math.min(3, limit));
  const geoShare = geos.slice(0, Math.min(2, limit - searchShare.length));
  const placeShare = places.slice(0, limit - searchShare.length - geoShare.length);
  const rest = [...searches.slice(searchShare.length), ...geos.slice(geoShare.length)];
  const page = [...placeShare, ...searchShare, ...geoShare];
  return { results: [...page, ...rest.slice(0, limit - page.length)] };
}
