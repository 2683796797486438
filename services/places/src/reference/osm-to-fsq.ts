import { readFileSync } from 'node:fs';
import type { Category } from './category.ts';
import type { FsqCategory, FsqTaxonomy } from './fsq-taxonomy.ts';
import { hexId } from './ids.ts';

/**
 * Which of the real taxonomy's categories each of Cairn's categories is (osm-to-fsq.json: every OpenStreetMap
 * preset of reference/taxonomy.ts, matched by name, by a similar name, by hand, or to its nearest mapped
 * ancestor). Several of Cairn's finer categories can be one real category (Pizza Restaurant and Pizza Fast Food
 * are both Pizzeria); each of Cairn's is exactly one.
 */
interface MappingFile {
  presets: Record<string, [fsqId: string, how: string]>;
}

let loaded: { byPreset: Map<string, string>; byCairnId: Map<string, string> } | undefined;

/** Read once per process; Cairn's category ids are hashes of preset ids (reference/ids.ts), so both keys. */
function mapping() {
  if (!loaded) {
    const file = JSON.parse(
      readFileSync(new URL('./osm-to-fsq.json', import.meta.url), 'utf8'),
    ) as MappingFile;
    const byPreset = new Map(Object.entries(file.presets).map(([preset, [id]]) => [preset, id]));
    const byCairnId = new Map([...byPreset].map(([preset, id]) => [hexId('category', preset), id]));
    loaded = { byPreset, byCairnId };
  }
  return loaded;
}

/** The real category id of an OpenStreetMap preset ("amenity/cafe/coffee_shop" → Coffee Shop's id). */
export function fsqIdOfPreset(presetId: string): string | undefined {
  return mapping().byPreset.get(presetId);
}

/**
 * The real category of each of Cairn's categories: a preset's from the mapping; a top-level one by its name
 * (the ten are the real ten); an imported one is itself when its id is a real one, else the real category with
 * its label; otherwise its parent's.
 */
export function mapCategories(
  categories: Iterable<Category>,
  taxonomy: FsqTaxonomy,
): Map<string, FsqCategory> {
  const mapped = mapping().byCairnId;
  const byId = new Map<string, Category>();
  for (const c of categories) byId.set(c.id, c);
  const out = new Map<string, FsqCategory>();
  const resolve = (c: Category, depth: number): FsqCategory | undefined => {
    const known = out.get(c.id);
    if (known) return known;
    const direct = mapped.get(c.id);
    const found =
      (direct !== undefined ? taxonomy.byId.get(direct) : undefined) ??
      taxonomy.byId.get(c.id) ??
      taxonomy.byLabel.get(c.label) ??
      (c.parentId && depth < 8 && byId.has(c.parentId)
        ? resolve(byId.get(c.parentId)!, depth + 1)
        : undefined);
    if (found) out.set(c.id, found);
    return found;
  };
  for (const c of byId.values()) resolve(c, 0);
  return out;
}
