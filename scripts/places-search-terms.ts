/**
 * Builds services/places/src/reference/search-terms.json: what a search query may mean as a category, per
 * language. Run after upgrading @openstreetmap/id-tagging-schema:
 *
 *   node --import tsx scripts/places-search-terms.ts
 *
 * Sources: the iD presets' names, aliases and search terms in every translation (@openstreetmap/id-tagging-schema,
 * ISC; translations by the OpenStreetMap community on Transifex), the languages of each country (countries-list,
 * MIT), the few English everyday words below that the presets lack or spread over too many categories, and
 * the everyday words of other languages and countries in places-everyday-words.ts.
 *
 * `presets` lists the preset ids; each language maps a normalized term to preset numbers: n (an index into
 * `presets`) when the term is the preset's name, an alias or one of the everyday words below (a strong match),
 * -1 - n when it is one of its search terms (a weaker one). A search term that is the
 * name of another preset in that language (the French café's "restaurant", the English restaurant's "cafe") is
 * left out: a person typing it means that other preset.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countries } from 'countries-list';
import { hexId } from '../services/places/src/reference/ids.ts';
import { normalizeName } from '../services/places/src/reference/normalize.ts';
import { buildTaxonomy } from '../services/places/src/reference/taxonomy.ts';
import { EVERYDAY_ENGLISH, EVERYDAY_LOCAL } from './places-everyday-words.ts';

const require = createRequire(import.meta.url);
const OUT = new URL('../services/places/src/reference/search-terms.json', import.meta.url);

/** Everyday English words for the categories people search most, at name weight. */
const EVERYDAY: Record<string, string[]> = {
  coffee: ['amenity/cafe', 'shop/coffee'],
  'coffee shop': ['amenity/cafe'],
  espresso: ['amenity/cafe'],
  gas: ['amenity/fuel'],
  petrol: ['amenity/fuel'],
  fuel: ['amenity/fuel'],
  'petrol station': ['amenity/fuel'],
  'gas station': ['amenity/fuel'],
  'filling station': ['amenity/fuel'],
  pharmacy: ['amenity/pharmacy'],
  chemist: ['amenity/pharmacy', 'shop/chemist'],
  drugstore: ['amenity/pharmacy', 'shop/chemist'],
  grocery: ['shop/supermarket', 'shop/convenience'],
  groceries: ['shop/supermarket', 'shop/convenience'],
  bookshop: ['shop/books'],
  books: ['shop/books'],
  bread: ['shop/bakery'],
  food: ['amenity/restaurant', 'amenity/fast_food'],
  eat: ['amenity/restaurant', 'amenity/fast_food'],
  drinks: ['amenity/bar', 'amenity/pub'],
  beer: ['amenity/bar', 'amenity/pub', 'amenity/biergarten'],
  cash: ['amenity/atm', 'amenity/bank'],
  lodging: ['tourism/hotel', 'tourism/hostel', 'tourism/guest_house'],
  accommodation: ['tourism/hotel', 'tourism/hostel', 'tourism/guest_house'],
  gym: ['leisure/fitness_centre'],
  doctor: ['amenity/doctors'],
  hospital: ['amenity/hospital'],
  pizza: ['amenity/restaurant/pizza', 'amenity/fast_food/pizza'],
  burger: ['amenity/fast_food/burger'],
  burgers: ['amenity/fast_food/burger'],
  'ice cream': ['amenity/ice_cream'],
};

interface PresetText {
  name?: string;
  aliases?: string;
  terms?: string;
}

function presetTexts(file: string): Record<string, PresetText> {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { presets?: { presets?: Record<string, PresetText> } }
  >;
  return Object.values(json)[0]?.presets?.presets ?? {};
}

const split = (text: string | undefined, by: RegExp) =>
  (text ?? '')
    .split(by)
    .map(normalizeName)
    .filter((t) => t.length >= 2);

function main() {
  const known = new Set(buildTaxonomy().map((e) => e.id));
  // Its English translation names every preset.
  const dir = fileURLToPath(
    new URL(
      '.',
      pathToFileURL(require.resolve('@openstreetmap/id-tagging-schema/dist/translations/en.min.json')),
    ),
  );
  const venues = Object.keys(presetTexts(`${dir}en.min.json`)).filter((id) =>
    known.has(hexId('category', id)),
  );

  const countryLanguages: Record<string, string[]> = {};
  const wanted = new Set(['en']);
  for (const [code, c] of Object.entries(countries)) {
    countryLanguages[code] = [...c.languages];
    for (const l of c.languages) wanted.add(l);
  }

  // Every translation file of a wanted language (fr, and pt with pt-BR, zh with zh-CN …), merged by language.
  const byLanguage = new Map<string, { names: Map<string, Set<string>>; terms: Map<string, Set<string>> }>();
  const files = readdirSync(dir).filter((f) => f.endsWith('.min.json') && f !== 'index.min.json');
  for (const file of files) {
    const language = file.replace(/\.min\.json$/, '').split(/[-@]/)[0]!;
    if (!wanted.has(language)) continue;
    const texts = presetTexts(dir + file);
    const entry = byLanguage.get(language) ?? { names: new Map(), terms: new Map() };
    byLanguage.set(language, entry);
    for (const id of venues) {
      const t = texts[id];
      if (!t) continue;
      for (const name of [...split(t.name, /\s*\/\s*/), ...split(t.aliases, /\n/)])
        addTo(entry.names, name, id);
      for (const term of split(t.terms, /,/)) addTo(entry.terms, term, id);
    }
  }

  const english = byLanguage.get('en')!;
  for (const [term, ids] of Object.entries({ ...EVERYDAY, ...EVERYDAY_ENGLISH }))
    for (const id of ids) addTo(english.names, normalizeName(term), id);
  for (const [language, words] of Object.entries(EVERYDAY_LOCAL)) {
    const entry = byLanguage.get(language);
    if (!entry) continue;
    for (const [term, ids] of Object.entries(words))
      for (const id of ids) addTo(entry.names, normalizeName(term), id);
  }
  // The leading words of a longer name (4 characters or more) are a search term of it: "ice cream" (Ice Cream
  // Shop), "sports" (Sports Centre).
  for (const { names, terms: searchTerms } of byLanguage.values()) {
    for (const [name, ids] of [...names]) {
      const words = name.split(' ');
      for (let n = 1; n < words.length; n++) {
        const lead = words.slice(0, n).join(' ');
        if (lead.length < 4) continue;
        for (const id of ids) addTo(searchTerms, lead, id);
      }
    }
  }

  const index = new Map(venues.map((id, i) => [id, i]));
  const terms: Record<string, Record<string, number[]>> = {};
  for (const [language, { names, terms: searchTerms }] of [...byLanguage].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const table: Record<string, number[]> = {};
    for (const [term, ids] of names) table[term] = [...ids].sort().map((id) => index.get(id)!);
    for (const [term, ids] of searchTerms) {
      // A term that names a preset (in this language or in English) means that preset.
      if (names.has(term) || english.names.has(term)) continue;
      table[term] = [...ids].sort().map((id) => -1 - index.get(id)!);
    }
    const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
    if (Object.keys(sorted).length > 0) terms[language] = sorted;
  }

  const schemaVersion = (
    JSON.parse(readFileSync(`${dir}../../package.json`, 'utf8')) as {
      version: string;
    }
  ).version;
  const out = {
    source: `@openstreetmap/id-tagging-schema ${schemaVersion} (ISC) preset names, aliases and terms; countries-list (MIT) languages; scripts/places-search-terms.ts`,
    countryLanguages,
    presets: venues,
    terms,
  };
  writeFileSync(OUT, `${JSON.stringify(out)}\n`);
  const count = Object.values(terms).reduce((n, t) => n + Object.keys(t).length, 0);
  console.log(`${Object.keys(terms).length} languages, ${count} terms, ${venues.length} presets`);
}

function addTo(map: Map<string, Set<string>>, term: string, id: string) {
  const set = map.get(term) ?? new Set<string>();
  set.add(id);
  map.set(term, set);
}

main();
