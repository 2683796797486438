import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geocoder } from '../src/geocode/geocoder.ts';
import { gazetteer } from '../src/reference/cities.ts';
import { hexId } from '../src/reference/ids.ts';
import { languagesNear, meaningOf } from '../src/search/meaning.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';
import { loadWorld } from './relevance/world.ts';

/**
 * What people type, in their language, names what they mean (issue 41 §4): every query of the world judged set
 * names its kind as strongly as a category's own name, in the languages of the city its `near` geocodes to,
 * and that `near` is the judged city. Short chain names ("Pret", "CVS") name their chain.
 */
let f: PlacesFixture;

beforeAll(async () => {
  f = await startPlaces();
}, 180_000);
afterAll(async () => {
  await f.close();
});

describe('the world judged set', () => {
  const world = loadWorld();

  it('is at least 300 queries over 30 countries and 10 languages', () => {
    expect(world.length).toBeGreaterThanOrEqual(300);
    expect(new Set(world.map((q) => q.country)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(world.map((q) => q.language)).size).toBeGreaterThanOrEqual(10);
  });

  it('geocodes each near to its judged city', () => {
    const wrong = [...new Set(world.map((q) => `${q.near}|${q.city}`))].filter((pair) => {
      const [near, city] = pair.split('|');
      return geocoder(gazetteer()).resolve(near!)?.id !== gazetteer().resolve(city!)?.id;
    });
    expect(wrong).toEqual([]);
  });

  it('names each category query’s kind strongly in its city’s languages', () => {
    const reference = f.places.deps.reference();
    const weak = world
      .filter((q) => q.want)
      .filter((q) => {
        const city = geocoder(gazetteer()).resolve(q.near);
        const meaning = meaningOf(q.query, reference, languagesNear(gazetteer().cities, city, undefined));
        const want = new Set(q.want!.flatMap((p) => reference.withDescendants(hexId('category', p))));
        return !meaning.strongCategoryIds.some((id) => want.has(id));
      })
      .map((q) => `${q.query} (${q.city})`);
    expect(weak).toEqual([]);
  });

  it('names each chain query’s chain', () => {
    const reference = f.places.deps.reference();
    const unnamed = world
      .filter((q) => q.chain)
      .filter((q) => {
        const names = meaningOf(q.query, reference, undefined).chainNames;
        return !names.some((n) => n.replace(/\W/g, '') === q.chain!.toLowerCase().replace(/\W/g, ''));
      })
      .map((q) => q.query);
    expect(unnamed).toEqual([]);
  });
});

describe('shortened chain names', () => {
  it('name the chain only when the word names no category', () => {
    const reference = f.places.deps.reference();
    expect(meaningOf('Pret', reference, ['en']).chainNames).toContain('pret a manger');
    expect(meaningOf('CVS', reference, ['en']).chainNames).toContain('cvs pharmacy');
    // "burger" is a kind of place, not Burger King.
    expect(meaningOf('burger', reference, ['en']).chainNames).not.toContain('burger king');
  });
});
