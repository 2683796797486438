import { readFileSync } from 'node:fs';
import { hexId } from './ids.ts';

/**
 * What a search query may mean as a category: the table built by scripts/places-search-terms.ts from the iD
 * presets' names, aliases and search terms in each language (@openstreetmap/id-tagging-schema, ISC) and the
 * languages of each country (countries-list, MIT). Read once per process (~2 MB).
 */
interface TermsFile {
  countryLanguages: Record<string, string[]>;
  /** Preset ids; a term's numbers index this list (n: a name or alias, -1 - n: a search term). */
  presets: string[];
  terms: Record<string, Record<string, number[]>>;
}

/** How strongly a term names a category: its name, an alias or an everyday word (2), or a search term (1). */
export type TermStrength = 1 | 2;

let loaded: { file: TermsFile; categoryIds: string[] } | undefined;

function table() {
  if (loaded) return loaded;
  const file = JSON.parse(readFileSync(new URL('./search-terms.json', import.meta.url), 'utf8')) as TermsFile;
  loaded = { file, categoryIds: file.presets.map((id) => hexId('category', id)) };
  return loaded;
}

/** The languages spoken in a country (ISO 639-1), as countries-list has them; none for an unknown code. */
export function languagesOf(country: string): readonly string[] {
  return table().file.countryLanguages[country.toUpperCase()] ?? [];
}

/** Every language the table has terms in. */
export function termLanguages(): readonly string[] {
  return Object.keys(table().file.terms);
}

/**
 * The category ids that a normalized term (normalizeName) names in any of the languages, each with the
 * strongest way it names it.
 */
export function categoriesNamed(term: string, languages: Iterable<string>): Map<string, TermStrength> {
  const { file, categoryIds } = table();
  const found = new Map<string, TermStrength>();
  for (const language of languages) {
    const numbers = file.terms[language]?.[term];
    if (!numbers || !Object.hasOwn(file.terms[language]!, term)) continue;
    for (const n of numbers) {
      const id = categoryIds[n >= 0 ? n : -1 - n]!;
      const strength: TermStrength = n >= 0 ? 2 : 1;
      if ((found.get(id) ?? 0) < strength) found.set(id, strength);
    }
  }
  return found;
}
