import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Db } from '@cairn/kit';
import { getMeta, setMeta } from '../store/meta.ts';
import { loadCategories, loadChains, replaceChains, upsertCategories } from '../store/reference.ts';
import type { Category } from './category.ts';
import { buildChains, type Chain } from './chains.ts';
import { type FsqCategory, type FsqTaxonomy, fsqTaxonomy } from './fsq-taxonomy.ts';
import { mapCategories } from './osm-to-fsq.ts';
import { buildTaxonomy } from './taxonomy.ts';

/**
 * Categories and chains held in memory for rendering and for expanding a category to its descendants. Places
 * store Cairn's category ids (OpenStreetMap presets, or the ids an import brought); the API speaks the real
 * taxonomy's ids (`fsq`): each stored category is one real category (`realCategory`), and a real id asked for
 * stands for the stored categories that are it or below it (`storedIdsFor`).
 */
export class Reference {
  readonly categories = new Map<string, Category>();
  readonly chains = new Map<string, Chain>();
  readonly fsq: FsqTaxonomy = fsqTaxonomy();
  private readonly children = new Map<string, string[]>();
  private readonly real: Map<string, FsqCategory>;
  /** Real id → the stored category ids that are that real category. */
  private readonly stored = new Map<string, string[]>();

  constructor(categories: readonly Category[], chains: readonly Chain[]) {
    for (const c of categories) this.categories.set(c.id, c);
    for (const c of categories) {
      if (c.parentId === null) continue;
      const list = this.children.get(c.parentId) ?? [];
      list.push(c.id);
      this.children.set(c.parentId, list);
    }
    for (const c of chains) this.chains.set(c.id, c);
    this.real = mapCategories(categories, this.fsq);
    for (const [id, real] of this.real) this.stored.set(real.id, [...(this.stored.get(real.id) ?? []), id]);
  }

  /** The real category a stored category id is (Cairn's "Pizza Fast Food" is the real Pizzeria). */
  realCategory(id: string): FsqCategory | undefined {
    return this.real.get(id);
  }

  /**
   * The stored category ids a requested id matches, or undefined when it names no category: a real id (24 hex
   * digits or the v3 number) matches the stored categories that are it or a real category below it; one of
   * Cairn's own ids, that category and its descendants. A real category no stored one is still matches nothing
   * (its own id is kept, so the filter stays a filter).
   */
  storedIdsFor(requested: string): string[] | undefined {
    const real = this.fsq.resolve(requested);
    if (!real) return this.categories.has(requested) ? this.withDescendants(requested) : undefined;
    const ids = this.fsq.withDescendants(real.id).flatMap((id) => this.stored.get(id) ?? []);
    return ids.length > 0 ? ids : [real.id];
  }

  /**
   * The stored category an edit means by an id: one of Cairn's own as given; for a real id, the stored category
   * that is that real category (the least deep, when several are), or failing that the one that is its nearest
   * real ancestor (Airport Lounge is kept as Airport).
   */
  storedIdOf(requested: string): string | undefined {
    let real = this.fsq.resolve(requested);
    if (!real) return this.categories.has(requested) ? requested : undefined;
    while (real) {
      const ids = this.stored.get(real.id) ?? [];
      const level = (id: string) => this.categories.get(id)?.level ?? 0;
      if (ids.length > 0) return ids.reduce((best, id) => (level(id) < level(best) ? id : best));
      real = real.parentId !== null ? this.fsq.byId.get(real.parentId) : undefined;
    }
    return undefined;
  }

  /** Of these stored ids, those whose parent is not among them: the fewest categories whose subtrees hold all. */
  topmostOf(ids: readonly string[]): string[] {
    const set = new Set(ids);
    return ids.filter((id) => {
      const parent = this.categories.get(id)?.parentId;
      return !parent || !set.has(parent);
    });
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
