import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Db } from '@cairn/kit';
import { getMeta, setMeta } from '../store/meta.ts';
import { loadCategories, loadChains, replaceChains, upsertCategories } from '../store/reference.ts';
import type { Category } from './category.ts';
import { buildChains, type Chain } from './chains.ts';
import { buildTaxonomy } from './taxonomy.ts';

/** Categories and chains held in memory for rendering and for expanding a category to its descendants. */
export class Reference {
  readonly categories = new Map<string, Category>();
  readonly chains = new Map<string, Chain>();
  private readonly children = new Map<string, string[]>();

  constructor(categories: readonly Category[], chains: readonly Chain[]) {
    for (const c of categories) this.categories.set(c.id, c);
    for (const c of categories) {
      if (c.parentId === null) continue;
      const list = this.children.get(c.parentId) ?? [];
      list.push(c.id);
      this.children.set(c.parentId, list);
    }
    for (const c of chains) this.chains.set(c.id, c);
  }

  /** The category and all its descendants: searching "Restaurant" finds Korean restaurants. */
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

function packageVersion(entry: string, up: number): string {
  let dir = dirname(entry);
  for (let i = 0; i < up; i++) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Bumped when the way the taxonomy or chains are built changes. */
const BUILD_REVISION = 1;

function referenceVersion(): string {
  const require = createRequire(import.meta.url);
  const presets = require.resolve('@openstreetmap/id-tagging-schema/dist/presets.min.json');
  const nsi = require.resolve('name-suggestion-index');
  return `presets ${packageVersion(presets, 1)}; nsi ${packageVersion(nsi, 2)}; build ${BUILD_REVISION}`;
}

/**
 * Writes the taxonomy and chains built from the npm packages into the database when they are missing or were
 * built from other package versions, in one transaction (concurrent starters wait on the meta row's lock).
 */
export async function ensureReferenceData(db: Db): Promise<boolean> {
  const version = referenceVersion();
  if ((await getMeta(db, 'reference_version')) === version) return false;
  const taxonomy = buildTaxonomy();
  const chains = buildChains(taxonomy);
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO places_meta (key, value) VALUES ('reference_version', '') ON CONFLICT (key) DO NOTHING`,
    );
    const { rows } = await tx.query<{ value: string }>(
      `SELECT value FROM places_meta WHERE key = 'reference_version' FOR UPDATE`,
    );
    if (rows[0]?.value === version) return false;
    await tx.query(`DELETE FROM places_categories WHERE source = 'osm'`);
    await upsertCategories(tx, taxonomy, true);
    await replaceChains(tx, chains);
    await setMeta(tx, 'reference_version', version);
    return true;
  });
}

export async function loadReference(db: Db): Promise<Reference> {
  return new Reference(await loadCategories(db), await loadChains(db));
}
