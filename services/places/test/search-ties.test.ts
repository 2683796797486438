import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesOf, type PlaceRecord, writePlaces } from '../src/index.ts';
import { hexId } from '../src/reference/ids.ts';
import { bareRecord, callPlaces, nextPage, type PlacesFixture, startPlaces } from './helpers.ts';

// Nearest-first search reads places in distance order from the index and settles ties (places at one point) by
// id, reading more rows when a page ends inside a group of ties. Here groups of places share a point, with
// categories and hours, so that pages end inside groups, with and without filters.
let f: PlacesFixture;
const A = { lat: 48.8566, lon: 2.3522 };
const B = { lat: 48.857, lon: 2.353 };
const C = { lat: 48.86, lon: 2.36 };
let records: PlaceRecord[];
// Two categories of the taxonomy (an id that names none is a 400), neither below the other.
const CAT_X = hexId('category', 'amenity/cafe');
const CAT_Y = hexId('category', 'shop/bakery');

function place(i: number, at: { lat: number; lon: number }, category: string): PlaceRecord {
  const id = `tie${String((i * 7919) % 1000).padStart(4, '0')}${i}`;
  return {
    ...bareRecord(id, `Place ${i}`, at.lat, at.lon),
    locality: 'Paris',
    country: 'FR',
    fsq_category_ids: [category],
    // Odd places are open every day 08:00–20:00 (the clock is a Tuesday 12:00 in Paris).
    hours:
      i % 2 === 1 ? Array.from({ length: 7 }, (_, d) => ({ day: d + 1, open: '0800', close: '2000' })) : null,
    time_zone: 'Europe/Paris',
  };
}

beforeAll(async () => {
  f = await startPlaces();
  records = [
    ...Array.from({ length: 30 }, (_, i) => place(i, A, i % 3 === 0 ? CAT_X : CAT_Y)),
    ...Array.from({ length: 25 }, (_, i) => place(100 + i, B, i % 3 === 0 ? CAT_X : CAT_Y)),
    ...Array.from({ length: 5 }, (_, i) => place(200 + i, C, CAT_X)),
  ];
  await writePlaces(f.deps.db, records, namesOf(f.places.deps.reference()));
}, 120_000);
afterAll(async () => {
  await f.close();
});

async function everyPage(first: string) {
  const results: string[] = [];
  let url: string | undefined = first;
  while (url) {
    const res = await callPlaces(f, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    results.push(...res.body.results!.map((r) => r.fsq_place_id as string));
    url = nextPage(res.headers);
  }
  return results;
}

/** Expected order: the group at A, then B, then C, each by id. */
function expected(keep: (r: PlaceRecord) => boolean): string[] {
  const group = (at: { lat: number; lon: number }) =>
    records
      .filter((r) => r.latitude === at.lat && r.longitude === at.lon && keep(r))
      .map((r) => r.fsq_place_id)
      .sort();
  return [...group(A), ...group(B), ...group(C)];
}

describe('nearest-first search with places at the same point', () => {
  it('orders ties by id, and pages through them without gaps or repeats', async () => {
    for (const limit of [1, 4, 7, 10, 50]) {
      const got = await everyPage(`/places/search?ll=${A.lat},${A.lon}&radius=2000&limit=${limit}`);
      expect(got, `limit ${limit}`).toEqual(expected(() => true));
    }
  });

  it('orders ties by id with category and open_now filters', async () => {
    for (const limit of [3, 5]) {
      const got = await everyPage(
        `/places/search?ll=${A.lat},${A.lon}&radius=2000&fsq_category_ids=${CAT_X}&open_now=true&limit=${limit}`,
      );
      expect(got, `limit ${limit}`).toEqual(
        expected((r) => r.fsq_category_ids.includes(CAT_X) && r.hours !== null),
      );
    }
  });

  it('orders ties by id in a rectangle', async () => {
    const got = await everyPage(`/places/search?ne=48.87,2.37&sw=48.85,2.35&sort=DISTANCE&limit=6`);
    expect(got.length).toBe(records.length);
    expect(new Set(got).size).toBe(records.length);
  });
});
