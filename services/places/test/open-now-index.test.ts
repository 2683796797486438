import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categorySlotToken, categorySlotTokens, openSlotTokens } from '../src/data/open-hours.ts';
import { placesMigrations } from '../src/index.ts';
import { allPlaces, haversine, localMinute, openAt, type Plain } from './brute-force.ts';
import { everyPage, type PlacesFixture, startPlaces, testCities } from './helpers.ts';

// open_now is first decided inside the search index by the 3-hour UTC slots a place is open (0013, open_hours), and
// with categories by category-and-slot tokens (0017): these searches sweep the clock through a winter and a summer
// day (every 4 hours, 2 hours apart), in Paris (daylight saving time) and Suva (UTC+12, by the antimeridian), and
// must find exactly the places a computation of our own finds open (and of the category, or one below it).
let f: PlacesFixture;
let all: Plain[];

beforeAll(async () => {
  f = await startPlaces({ count: 800, seed: 'open-now-index' });
  all = await allPlaces(f.deps.db);
}, 120_000);
afterAll(async () => {
  await f.close();
});

describe('open_now decided in the index', () => {
  it('finds exactly the places open through a winter and a summer day', async () => {
    const days = [Date.UTC(2025, 0, 14), Date.UTC(2025, 6, 19)]; // a Tuesday in January, a Saturday in July
    let compared = 0;
    for (const city of testCities()) {
      const near = all.filter((p) => haversine(city.latitude, city.longitude, p.lat, p.lon) <= 4000);
      for (const day of days) {
        for (let hour = day === days[0] ? 0 : 2; hour < 24; hour += 4) {
          const at = new Date(day + hour * 3_600_000 + ((hour * 13) % 60) * 60_000);
          f.clock.set(at);
          const found = await everyPage(
            f,
            `/places/search?ll=${city.latitude},${city.longitude}&radius=4000&open_now=true&limit=50&fields=fsq_place_id`,
          );
          const expected = near.filter((p) => openAt(p.hours, localMinute(at, p.timeZone))).map((p) => p.id);
          expect(new Set(found), `${city.name} at ${at.toISOString()}`).toEqual(new Set(expected));
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  }, 120_000);

  it('finds exactly the places of a category, or of one below it, open through the day', async () => {
    const reference = f.places.deps.reference();
    const near = new Map(
      testCities().map((city) => [
        city,
        all.filter((p) => haversine(city.latitude, city.longitude, p.lat, p.lon) <= 4000),
      ]),
    );
    // The categories of the places around, and their ancestors: every level the taxonomy has here.
    const kinds = new Set<string>();
    for (const places of near.values())
      for (const p of places)
        for (const id of p.categories)
          for (const step of reference.categories.get(id)?.path ?? []) kinds.add(step.id);
    const levels = new Map<number, string[]>();
    for (const id of kinds) {
      const level = reference.categories.get(id)!.level;
      levels.set(level, [...(levels.get(level) ?? []), id]);
    }
    // The most common category of each level, and a pair of level-2 ones asked together.
    const count = (id: string) => {
      const under = new Set(reference.withDescendants(id));
      return all.filter((p) => p.categories.some((c) => under.has(c))).length;
    };
    const asked: string[][] = [...levels.values()].map((ids) => [
      ids.sort((a, b) => count(b) - count(a))[0]!,
    ]);
    const second = (levels.get(2) ?? []).slice(1, 3);
    if (second.length === 2) asked.push(second);
    expect(asked.length).toBeGreaterThanOrEqual(3);
    let compared = 0;
    for (const ids of asked) {
      const under = new Set(ids.flatMap((id) => reference.withDescendants(id)));
      for (const [city, places] of near) {
        for (let hour = 1; hour < 24; hour += 5) {
          const at = new Date(Date.UTC(2025, 0, 14) + hour * 3_600_000 + 17 * 60_000);
          f.clock.set(at);
          const found = await everyPage(
            f,
            `/places/search?ll=${city.latitude},${city.longitude}&radius=4000&open_now=true&fsq_category_ids=${ids.join(',')}&limit=50&fields=fsq_place_id`,
          );
          const expected = places
            .filter(
              (p) => p.categories.some((c) => under.has(c)) && openAt(p.hours, localMinute(at, p.timeZone)),
            )
            .map((p) => p.id);
          expect(new Set(found), `${ids.join(',')} in ${city.name} at ${at.toISOString()}`).toEqual(
            new Set(expected),
          );
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  }, 120_000);

  it('migration 0017 gives the places the category-and-slot tokens the write path gives them', async () => {
    const db = f.deps.db;
    const written = await db.query<{ fsq_place_id: string; open_hours: string[] }>(
      'SELECT fsq_place_id, open_hours FROM places ORDER BY fsq_place_id',
    );
    expect(written.rows.some((r) => r.open_hours.some((t) => t.includes('@')))).toBe(true);
    // Back to the slot tokens alone, as before 0017; then 0017 as it is.
    await db.query(
      `UPDATE places SET open_hours = array(SELECT t FROM unnest(open_hours) t WHERE t NOT LIKE '%@%')`,
    );
    await db.exec(placesMigrations.find((m) => m.id === 'places/0017_category_slot_tokens.sql')!.sql);
    const migrated = await db.query<{ fsq_place_id: string; open_hours: string[] }>(
      'SELECT fsq_place_id, open_hours FROM places ORDER BY fsq_place_id',
    );
    const sorted = (rows: typeof written.rows) => rows.map((r) => [r.fsq_place_id, [...r.open_hours].sort()]);
    expect(sorted(migrated.rows)).toEqual(sorted(written.rows));
  });

  it('marks a place of a category with its slots for the category and each ancestor', () => {
    const digest = (id: string) => createHash('md5').update(id).digest('hex').slice(0, 8);
    expect(categorySlotTokens([['top', 'mid', 'leaf']], ['open_s2', 'open_s5'])).toEqual(
      ['top', 'mid', 'leaf'].flatMap((id) => [`${digest(id)}@s2`, `${digest(id)}@s5`]),
    );
    expect(categorySlotToken('mid', 7)).toBe(`${digest('mid')}@s2`);
    // Two categories sharing ancestors: each ancestor once.
    const shared = categorySlotTokens(
      [
        ['top', 'a'],
        ['top', 'b'],
      ],
      ['open_s0'],
    );
    expect(shared.sort()).toEqual(['a', 'b', 'top'].map((id) => `${digest(id)}@s0`).sort());
    expect(categorySlotTokens([['top', 'a']], [])).toEqual([]);
  });

  it('marks the 3-hour UTC slots of local opening hours, on both sides of daylight saving time', () => {
    // Monday 09:00–17:30 in Paris: 08:00–16:30 UTC in winter (slots 2–5), 07:00–15:30 UTC in summer (2–5).
    expect(openSlotTokens([[540, 1050]], 'Europe/Paris', 2025)).toEqual([
      'open_s2',
      'open_s3',
      'open_s4',
      'open_s5',
    ]);
    // Monday 05:00–06:00 in Paris: 04:00–05:00 UTC in winter (slot 1), 03:00–04:00 in summer (slot 1).
    expect(openSlotTokens([[300, 360]], 'Europe/Paris', 2025)).toEqual(['open_s1']);
    // Monday 00:30–02:00 in Kolkata (UTC+5:30) is Sunday 19:00–20:30 UTC (slot 6).
    expect(openSlotTokens([[30, 120]], 'Asia/Kolkata', 2025)).toEqual(['open_s6']);
    // Monday 05:00–06:30 in Kolkata is Sunday 23:30 – Monday 01:00 UTC: slots 7 and 0.
    expect(openSlotTokens([[300, 390]], 'Asia/Kolkata', 2025)).toEqual(['open_s0', 'open_s7']);
    expect(openSlotTokens([], 'UTC', 2025)).toEqual([]);
  });
});
