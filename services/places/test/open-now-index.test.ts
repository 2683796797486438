import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekIntervals } from '../src/data/hours.ts';
import {
  categorySlotToken,
  categorySlotTokens,
  openNowTokens,
  openSlots,
  openTokens,
} from '../src/data/open-hours.ts';
import { allPlaces, haversine, localMinute, openAt, type Plain } from './brute-force.ts';
import { callPlaces, nextPage, type PlacesFixture, startPlaces, testCities } from './helpers.ts';

// open_now is first decided inside the search index by the UTC half hours and days a place is open (0018, open_hours), and with
// categories also by category-and-slot tokens (0017, 3-hour slots): these searches sweep the clock through a winter and a summer
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

async function everyPage(first: string): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = first;
  for (let pages = 0; url && pages < 100; pages++) {
    const res = await callPlaces(f, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.results!.map((r) => r.fsq_place_id as string));
    url = nextPage(res.headers);
  }
  return ids;
}

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

  it('migrations 0017 and 0018 give the places the tokens the write path gives them', async () => {
    const db = f.deps.db;
    const written = await db.query<{ fsq_place_id: string; open_hours: string[] }>(
      'SELECT fsq_place_id, open_hours FROM places ORDER BY fsq_place_id',
    );
    expect(written.rows.some((r) => r.open_hours.some((t) => t.includes('@')))).toBe(true);
    expect(written.rows.some((r) => r.open_hours.includes('open_0330'))).toBe(true);
    expect(written.rows.some((r) => r.open_hours.includes('open_sun'))).toBe(true);
    // Back to the 3-hour slot tokens alone, as before 0017 (0013's "open_s0" … "open_s7"); then both as they are.
    const year = new Date().getUTCFullYear();
    const before = all.map((p) => {
      const week = p.hours && p.hours.length > 0 ? weekIntervals(p.hours) : [];
      return { id: p.id, slots: openSlots(week, p.timeZone, year).map((k) => `open_s${k}`) };
    });
    expect(before.some((p) => p.slots.length > 0 && p.slots.length < 8)).toBe(true);
    await db.query(
      `UPDATE places SET open_hours = b.slots
         FROM json_to_recordset($1::json) AS b(id text, slots text[]) WHERE fsq_place_id = b.id`,
      [JSON.stringify(before)],
    );
    const migrations = new URL('../migrations/', import.meta.url);
    for (const file of ['0017_category_slot_tokens.sql', '0018_open_time_tokens.sql'])
      await db.transaction((tx) => tx.exec(readFileSync(new URL(file, migrations), 'utf8')));
    const migrated = await db.query<{ fsq_place_id: string; open_hours: string[] }>(
      'SELECT fsq_place_id, open_hours FROM places ORDER BY fsq_place_id',
    );
    const sorted = (rows: typeof written.rows) => rows.map((r) => [r.fsq_place_id, [...r.open_hours].sort()]);
    expect(sorted(migrated.rows)).toEqual(sorted(written.rows));
  });

  it('marks a place of a category with its slots for the category and each ancestor', () => {
    const digest = (id: string) => createHash('md5').update(id).digest('hex').slice(0, 8);
    expect(categorySlotTokens([['top', 'mid', 'leaf']], [2, 5])).toEqual(
      ['top', 'mid', 'leaf'].flatMap((id) => [`${digest(id)}@s2`, `${digest(id)}@s5`]),
    );
    expect(categorySlotToken('mid', 7)).toBe(`${digest('mid')}@s2`);
    // Two categories sharing ancestors: each ancestor once.
    const shared = categorySlotTokens(
      [
        ['top', 'a'],
        ['top', 'b'],
      ],
      [0],
    );
    expect(shared.sort()).toEqual(['a', 'b', 'top'].map((id) => `${digest(id)}@s0`).sort());
    expect(categorySlotTokens([['top', 'a']], [])).toEqual([]);
  });

  it('marks the UTC half hours, days and 3-hour slots of local opening hours, on both sides of daylight saving time', () => {
    const halves = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => from + i).map(
        (k) => `open_${String(Math.floor(k / 2)).padStart(2, '0')}${k % 2 ? '30' : '00'}`,
      );
    // Monday 09:00–17:30 in Paris: 08:00–16:30 UTC in winter, 07:00–15:30 UTC in summer; Monday either way.
    expect(openTokens([[540, 1050]], 'Europe/Paris', 2025)).toEqual([...halves(14, 33), 'open_mon']);
    expect(openSlots([[540, 1050]], 'Europe/Paris', 2025)).toEqual([2, 3, 4, 5]);
    // Monday 05:00–06:00 in Paris: 04:00–05:00 UTC in winter, 03:00–04:00 in summer.
    expect(openTokens([[300, 360]], 'Europe/Paris', 2025)).toEqual([...halves(6, 10), 'open_mon']);
    expect(openSlots([[300, 360]], 'Europe/Paris', 2025)).toEqual([1]);
    // Monday 00:30–02:00 in Kolkata (UTC+5:30) is Sunday 19:00–20:30 UTC.
    expect(openTokens([[30, 120]], 'Asia/Kolkata', 2025)).toEqual([...halves(38, 41), 'open_sun']);
    expect(openSlots([[30, 120]], 'Asia/Kolkata', 2025)).toEqual([6]);
    // Monday 05:00–06:30 in Kolkata is Sunday 23:30 – Monday 01:00 UTC.
    expect(openTokens([[300, 390]], 'Asia/Kolkata', 2025)).toEqual([
      'open_0000',
      'open_0030',
      'open_2330',
      'open_mon',
      'open_sun',
    ]);
    expect(openSlots([[300, 390]], 'Asia/Kolkata', 2025)).toEqual([0, 7]);
    // Saturday 20:00 – Sunday 02:00 in New York is Sunday 01:00–07:00 UTC in winter (00:00–06:00 in summer).
    expect(openTokens([[5 * 1440 + 1200, 6 * 1440 + 120]], 'America/New_York', 2025)).toEqual([
      ...halves(0, 14),
      'open_sun',
    ]);
    // Open all week: every half hour and day, once.
    expect(openTokens([[0, 10080]], 'America/New_York', 2025)).toHaveLength(48 + 7);
    expect(openTokens([], 'UTC', 2025)).toEqual([]);
    // A zone nobody knows counts as UTC (as in migration 0018).
    expect(openTokens([[60, 120]], 'Nowhere/Atlantis', 2025)).toEqual(['open_0100', 'open_0130', 'open_mon']);
    // The tokens of an instant: its half hour of the UTC day, and its day of the UTC week.
    expect(openNowTokens(new Date('2025-01-14T05:29:59Z'))).toEqual(['open_0500', 'open_tue']);
    expect(openNowTokens(new Date('2025-01-19T23:30:00Z'))).toEqual(['open_2330', 'open_sun']);
  });
});
