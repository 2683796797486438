import { createRequire } from 'node:module';
import type { TaxonomyEntry } from '../reference/taxonomy.ts';

/**
 * A category's name in a language, from the iD presets' translations (@openstreetmap/id-tagging-schema, ISC):
 * "Boulangerie", "Bäckerei", "パン屋". Falls back to the English name where a translation is missing. Each
 * language's file (~300 KB) is read on first use.
 */
const require = createRequire(import.meta.url);
const loaded = new Map<string, Record<string, { name?: string }>>();

function presetsIn(language: string): Record<string, { name?: string }> {
  let presets = loaded.get(language);
  if (!presets) {
    try {
      const file = require(
        `@openstreetmap/id-tagging-schema/dist/translations/${language}.min.json`,
      ) as Record<string, { presets?: { presets?: Record<string, { name?: string }> } }>;
      presets = file[language]?.presets?.presets ?? {};
    } catch {
      presets = {};
    }
    loaded.set(language, presets);
  }
  return presets;
}

const names = new Map<string, string>();

/** The short local name of a category; translations with alternatives ("Café / Bar") keep the first. */
export function localCategoryName(language: string, category: TaxonomyEntry): string {
  if (language === 'en') return category.shortName;
  const key = `${language}|${category.id}`;
  let out = names.get(key);
  if (out === undefined) {
    const name = presetsIn(language)[category.presetId]?.name;
    out = name ? name.split(/\s*[/;]\s*/)[0]! : category.shortName;
    names.set(key, out);
  }
  return out;
}
