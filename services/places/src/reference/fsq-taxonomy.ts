import { readFileSync } from 'node:fs';

/**
 * The real places service's category taxonomy (fsq-categories.json, credited in NOTICE): 1,245 categories in
 * levels 1–6, each with its 24-hex id (what the 2025-06-17 API takes and returns) and, for 1,233 of them, the
 * numeric id of the v3 API (13035 = Coffee Shop), which integrators' code still carries. Read once per process.
 */
export interface FsqCategory {
  /** 24 lower-case hex digits, e.g. 4bf58dd8d48988d1e0931735. */
  id: string;
  /** The v3 API's id, e.g. "13035"; null for the few categories added after v3. */
  numericId: string | null;
  name: string;
  /** "Dining and Drinking > Cafe, Coffee, and Tea House > Coffee Shop" */
  label: string;
  level: number;
  parentId: string | null;
}

interface TaxonomyFile {
  categories: [id: string, numericId: string | null, label: string][];
}

const HEX_ID = /^[0-9a-f]{24}$/i;
const NUMERIC_ID = /^\d{5}$/;

export class FsqTaxonomy {
  readonly byId = new Map<string, FsqCategory>();
  readonly byLabel = new Map<string, FsqCategory>();
  private readonly byNumeric = new Map<string, FsqCategory>();
  private readonly children = new Map<string, string[]>();

  constructor(rows: TaxonomyFile['categories']) {
    for (const [id, numericId, label] of rows) {
      const names = label.split(' > ');
      const parent = names.length > 1 ? this.byLabel.get(names.slice(0, -1).join(' > ')) : undefined;
      if (names.length > 1 && !parent)
        throw new Error(`fsq-categories.json: "${label}" comes before its parent`);
      if (this.byId.has(id)) throw new Error(`fsq-categories.json: id ${id} is listed twice`);
      const category: FsqCategory = {
        id,
        numericId,
        name: names.at(-1)!,
        label,
        level: names.length,
        parentId: parent?.id ?? null,
      };
      this.byId.set(id, category);
      this.byLabel.set(label, category);
      if (numericId !== null) this.byNumeric.set(numericId, category);
      if (parent) this.children.set(parent.id, [...(this.children.get(parent.id) ?? []), id]);
    }
  }

  /** The category an id names in either form (24 hex digits in any case, or the v3 number). */
  resolve(text: string): FsqCategory | undefined {
    if (HEX_ID.test(text)) return this.byId.get(text.toLowerCase());
    if (NUMERIC_ID.test(text)) return this.byNumeric.get(text);
    return undefined;
  }

  /** The category and everything below it: a search for "Restaurant" finds pizzerias. */
  withDescendants(id: string): string[] {
    const out: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const next = stack.pop()!;
      out.push(next);
      stack.push(...(this.children.get(next) ?? []));
    }
    return out;
  }
}

let loaded: FsqTaxonomy | undefined;

export function fsqTaxonomy(): FsqTaxonomy {
  if (!loaded) {
    const file = JSON.parse(
      readFileSync(new URL('./fsq-categories.json', import.meta.url), 'utf8'),
    ) as TaxonomyFile;
    loaded = new FsqTaxonomy(file.categories);
  }
  return loaded;
}
