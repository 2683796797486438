import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fsqTaxonomy } from './fsq-taxonomy.ts';
import { hexId } from './ids.ts';
import { fsqIdOfPreset } from './osm-to-fsq.ts';
import { Reference } from './reference.ts';
import { buildTaxonomy } from './taxonomy.ts';

const taxonomy = fsqTaxonomy();
const all = [...taxonomy.byId.values()];
const COFFEE_SHOP = '4bf58dd8d48988d1e0931735';
const CAFE_COFFEE_TEA = '63be6904847c3692a84b9bb6';

describe('the real category taxonomy', () => {
  it('holds the published categories, levels 1 to 6, with the v3 number for all but a few', () => {
    expect(all).toHaveLength(1245);
    expect(all.filter((c) => c.numericId !== null)).toHaveLength(1233);
    expect(new Set(all.map((c) => c.level))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(all.filter((c) => c.level === 1).map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'Arts and Entertainment',
        'Dining and Drinking',
        'Retail',
        'Travel and Transportation',
      ]),
    );
  });

  it('resolves every category by either id, in any case, to the same category', () => {
    const numbers = new Set<string>();
    for (const c of all) {
      expect(taxonomy.resolve(c.id)).toBe(c);
      expect(taxonomy.resolve(c.id.toUpperCase())).toBe(c);
      if (c.numericId === null) continue;
      expect(taxonomy.resolve(c.numericId)).toBe(c);
      expect(numbers.has(c.numericId)).toBe(false);
      numbers.add(c.numericId);
    }
  });

  it('knows the ids integrators carry: Coffee Shop is 13035, its parent Cafe, Coffee, and Tea House 13032', () => {
    expect(taxonomy.resolve('13035')).toMatchObject({ id: COFFEE_SHOP, name: 'Coffee Shop' });
    expect(taxonomy.resolve('13032')).toMatchObject({ id: CAFE_COFFEE_TEA, level: 2 });
    expect(taxonomy.resolve('13065')).toMatchObject({ id: '4d4b7105d754a06374d81259', name: 'Restaurant' });
    expect(taxonomy.resolve(COFFEE_SHOP)!.parentId).toBe(CAFE_COFFEE_TEA);
  });

  it('places each category under its parent: the label is the parent’s label and its name', () => {
    for (const c of all) {
      if (c.parentId === null) {
        expect(c.level).toBe(1);
        continue;
      }
      const parent = taxonomy.byId.get(c.parentId)!;
      expect(c.label).toBe(`${parent.label} > ${c.name}`);
      expect(c.level).toBe(parent.level + 1);
      expect(taxonomy.withDescendants(parent.id)).toContain(c.id);
    }
    expect(taxonomy.withDescendants(CAFE_COFFEE_TEA)).toContain(COFFEE_SHOP);
    expect(taxonomy.withDescendants(COFFEE_SHOP)).toEqual([COFFEE_SHOP]);
  });

  it('names nothing with any other text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const found = taxonomy.resolve(text);
        if (found) expect([found.id, found.numericId]).toContain(text.toLowerCase());
      }),
    );
    expect(taxonomy.resolve('ffffffffffffffffffffffff')).toBeUndefined();
    expect(taxonomy.resolve('99999')).toBeUndefined();
  });
});

describe('Cairn’s categories onto the real taxonomy', () => {
  const cairn = buildTaxonomy();
  const reference = new Reference(cairn, []);

  it('maps every OpenStreetMap preset to a real category', () => {
    for (const c of cairn) {
      if (c.presetId) expect(taxonomy.byId.has(fsqIdOfPreset(c.presetId) ?? ''), c.presetId).toBe(true);
      expect(reference.realCategory(c.id), c.label).toBeDefined();
    }
  });

  it('maps the everyday categories to their real counterparts', () => {
    const realName = (preset: string) => reference.realCategory(hexId('category', preset))?.name;
    expect(realName('amenity/cafe')).toBe('Café');
    expect(realName('amenity/cafe/coffee_shop')).toBe('Coffee Shop');
    expect(realName('amenity/restaurant/pizza')).toBe('Pizzeria');
    expect(realName('amenity/fast_food/pizza')).toBe('Pizzeria');
    expect(realName('amenity/pharmacy')).toBe('Pharmacy');
    expect(realName('shop/supermarket')).toBe('Supermarket');
    expect(realName('amenity/fuel')).toBe('Fuel Station');
    expect(realName('tourism/hotel')).toBe('Hotel');
    expect(realName('tourism/museum')).toBe('Museum');
    expect(realName('amenity/atm')).toBe('ATM');
  });

  it('finds the stored categories of a real id in either form, with those below it', () => {
    const coffeeHouse = hexId('category', 'amenity/cafe/coffee_shop');
    expect(reference.storedIdsFor(COFFEE_SHOP)).toEqual([coffeeHouse]);
    expect(reference.storedIdsFor('13035')).toEqual([coffeeHouse]);
    const cafes = reference.storedIdsFor('13032')!;
    expect(cafes).toEqual(expect.arrayContaining([coffeeHouse, hexId('category', 'amenity/cafe')]));
    // Cairn's own ids keep working, with Cairn's descendants.
    expect(reference.storedIdsFor(hexId('category', 'amenity/cafe'))).toContain(coffeeHouse);
    expect(reference.storedIdsFor('ffffffffffffffffffffffff')).toBeUndefined();
    // A real category no stored one is matches only itself.
    expect(reference.storedIdsFor('5f2c14a5b6d05514c7042eb7')).toEqual(['5f2c14a5b6d05514c7042eb7']);
  });

  it('stores a real id from an edit as the category that is it, or as its nearest ancestor’s', () => {
    expect(reference.storedIdOf('13035')).toBe(hexId('category', 'amenity/cafe/coffee_shop'));
    const lounge = all.find((c) => c.name === 'Airport Lounge')!;
    expect(reference.storedIdOf(lounge.id)).toBe(hexId('category', 'aeroway/aerodrome'));
    expect(reference.storedIdOf('ffffffffffffffffffffffff')).toBeUndefined();
  });
});
