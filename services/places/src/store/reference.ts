import type { Queryable } from '@cairn/kit';
import type { Category } from '../reference/category.ts';
import type { Chain } from '../reference/chains.ts';

const CATEGORY_TYPE = `category_id text, category_level smallint, category_name text, category_label text,
  parent_id text, short_name text, plural_name text, icon text, source text,
  ${[1, 2, 3, 4, 5, 6].map((n) => `level${n}_category_id text, level${n}_category_name text`).join(', ')}`;

const CATEGORY_COLUMNS = CATEGORY_TYPE.split(',').map((c) => c.trim().split(/\s+/)[0]!);

function categoryRow(c: Category) {
  const row: Record<string, unknown> = {
    category_id: c.id,
    category_level: c.level,
    category_name: c.name,
    category_label: c.label,
    parent_id: c.parentId,
    short_name: c.shortName,
    plural_name: c.pluralName,
    icon: c.icon,
    source: c.source,
  };
  c.path.forEach((p, i) => {
    row[`level${i + 1}_category_id`] = p.id;
    row[`level${i + 1}_category_name`] = p.name;
  });
  return row;
}

/** Inserts categories; an existing id keeps its row unless `replace`. */
export async function upsertCategories(db: Queryable, categories: readonly Category[], replace: boolean) {
  if (categories.length === 0) return;
  await db.query(
    `INSERT INTO places_categories (${CATEGORY_COLUMNS.join(', ')})
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${CATEGORY_TYPE})
     ON CONFLICT (category_id) DO ${
       replace
         ? `UPDATE SET ${CATEGORY_COLUMNS.slice(1)
             .map((c) => `${c} = EXCLUDED.${c}`)
             .join(', ')}`
         : 'NOTHING'
     }`,
    [JSON.stringify(categories.map(categoryRow))],
  );
}

export async function replaceChains(db: Queryable, chains: readonly Chain[]) {
  await db.query('DELETE FROM places_chains');
  for (let i = 0; i < chains.length; i += 5000) {
    const batch = chains.slice(i, i + 5000).map((c) => ({
      fsq_chain_id: c.id,
      name: c.name,
      fsq_category_ids: c.categoryIds,
      countries: c.countries,
      wikidata: c.wikidata,
      source_id: c.sourceId,
    }));
    await db.query(
      `INSERT INTO places_chains (fsq_chain_id, name, fsq_category_ids, countries, wikidata, source_id)
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS r(fsq_chain_id text, name text, fsq_category_ids text[], countries text[], wikidata text, source_id text)`,
      [JSON.stringify(batch)],
    );
  }
}

interface CategoryRow {
  category_id: string;
  category_level: number;
  category_name: string;
  category_label: string;
  parent_id: string | null;
  short_name: string;
  plural_name: string;
  icon: string | null;
  source: 'osm' | 'import';
  [level: string]: unknown;
}

export async function loadCategories(db: Queryable): Promise<Category[]> {
  const { rows } = await db.query<CategoryRow>('SELECT * FROM places_categories');
  return rows.map((r) => {
    const path: { id: string; name: string }[] = [];
    for (let n = 1; n <= r.category_level; n++) {
      const id = r[`level${n}_category_id`];
      const name = r[`level${n}_category_name`];
      if (typeof id === 'string' && typeof name === 'string') path.push({ id, name });
    }
    return {
      id: r.category_id,
      level: r.category_level,
      name: r.category_name,
      label: r.category_label,
      parentId: r.parent_id,
      shortName: r.short_name,
      pluralName: r.plural_name,
      icon: r.icon,
      source: r.source,
      path,
    };
  });
}

export async function loadChains(db: Queryable): Promise<Chain[]> {
  const { rows } = await db.query<{
    fsq_chain_id: string;
    name: string;
    fsq_category_ids: string[];
    countries: string[];
    wikidata: string | null;
    source_id: string;
  }>('SELECT * FROM places_chains');
  return rows.map((r) => ({
    id: r.fsq_chain_id,
    name: r.name,
    categoryIds: r.fsq_category_ids,
    countries: r.countries,
    wikidata: r.wikidata,
    sourceId: r.source_id,
  }));
}
