import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesOf, type PlaceRecord, placesMigrations, writePlaces } from '../src/index.ts';
import { copyPlaces, PlacesCopyBuilder } from '../src/store/places-write.ts';
import { haversine, localMinute, openAt, type Plain } from './brute-force.ts';
import { bareRecord, everyPage, type PlacesFixture, startPlaces } from './helpers.ts';

// `category + open_now` nearest first reads places_open_kinds (migration 0018), whose index knows the minutes of
// the UTC day each place is open on some day. Here places with awkward hours (past midnight, from Sunday into
// Monday, split days, one hour a week, day and night) in awkward zones (half- and quarter-hour offsets, daylight
// saving time on both hemispheres, UTC+14) are asked for every 53 minutes through a week that holds a change of
// clocks, and must be exactly those a computation of our own finds open, nearest first, ties by id. Then the
// places are edited and removed, and the table must follow.
let f: PlacesFixture;
let records: PlaceRecord[];
let root: string;
let leaf: string;
const HERE = { lat: 48.8566, lon: 2.3522 };

type Hours = NonNullable<PlaceRecord['hours']>;
const every = (open: string, close: string, days = [1, 2, 3, 4, 5, 6, 7]): Hours =>
  days.map((day) => ({ day, open, close }));
const PATTERNS: Hours[] = [
  every('1100', '2200'),
  [...every('1800', '0200', [5, 6]), { day: 7, open: '2000', close: '0400' }],
  every('0000', '0000'),
  [{ day: 7, open: '1000', close: '1100' }],
  [...every('1200', '1400', [1, 2, 3, 4, 5, 6]), ...every('1900', '2300', [1, 2, 3, 4, 5, 6])],
  [{ day: 1, open: '0000', close: '0100' }],
  every('0630', '+0130', [2, 4, 6]),
  [...every('1030', '2200', [1, 2, 3, 4, 5, 6]), { day: 7, open: '1130', close: '2200' }],
];
const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  null,
];

beforeAll(async () => {
  f = await startPlaces();
  const reference = f.places.deps.reference();
  // A category three levels down, and the top of its path: places are of the leaf, searches ask for the top.
  const deep = [...reference.categories.values()].find((c) => c.path.length >= 3)!;
  leaf = deep.id;
  root = deep.path[0]!.id;
  records = [];
  let i = 0;
  for (const hours of PATTERNS)
    for (const zone of ZONES) {
      i++;
      // Two places at some points (ties), the rest spread over a few kilometres.
      const step = i % 5 === 0 ? i - 1 : i;
      records.push({
        ...bareRecord(`kind${String(i).padStart(3, '0')}`, `Place ${i}`, HERE.lat + step * 0.0011, HERE.lon),
        fsq_category_ids: [i % 7 === 0 ? 'not-a-category' : leaf],
        hours,
        time_zone: zone,
      });
    }
  await writePlaces(f.deps.db, records, namesOf(reference));
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** The places of the category open at `at`, nearest first, ties by id. */
function expected(at: Date, places: readonly PlaceRecord[]): string[] {
  return places
    .filter((r) => r.fsq_category_ids.includes(leaf))
    .filter((r) => openAt(r.hours as Plain['hours'], localMinute(at, r.time_zone)))
    .map((r) => ({ id: r.fsq_place_id, d: haversine(HERE.lat, HERE.lon, r.latitude, r.longitude) }))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .map((r) => r.id);
}

const search = (limit: number) =>
  `/places/search?ll=${HERE.lat},${HERE.lon}&radius=20000&open_now=true&fsq_category_ids=${root}&sort=DISTANCE&limit=${limit}&fields=fsq_place_id`;

describe('category + open_now, nearest first, from places_open_kinds', () => {
  it('finds exactly the places open, in order, through a week with a change of clocks', async () => {
    // 29 October – 5 November 2025: New York leaves daylight saving time on 2 November, Lord Howe and Chatham
    // are in theirs.
    const start = Date.UTC(2025, 9, 29, 0, 7);
    let compared = 0;
    for (let at = start; at < start + 7 * 86_400_000; at += 53 * 60_000) {
      const now = new Date(at);
      f.clock.set(now);
      const want = expected(now, records);
      const found = await everyPage(f, search(at % 2 === 0 ? 50 : 4));
      expect(found, now.toISOString()).toEqual(want);
      compared += want.length;
    }
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);

  it('follows edits, removals and restored places', async () => {
    const db = f.deps.db;
    const reference = f.places.deps.reference();
    const at = new Date(Date.UTC(2025, 9, 29, 23, 30)); // a Wednesday night in Paris
    f.clock.set(at);
    // New hours for some, another category for others, a move for one: the same statement writes them all.
    const edited = records.map((r, i) =>
      i % 3 === 0
        ? { ...r, hours: every('2300', '0100') }
        : i % 3 === 1 && i % 2 === 0
          ? { ...r, fsq_category_ids: ['not-a-category'] }
          : i === 5
            ? { ...r, latitude: r.latitude + 0.05 }
            : r,
    );
    await writePlaces(db, edited, namesOf(reference));
    expect(await everyPage(f, search(50))).toEqual(expected(at, edited));
    const gone = expected(at, edited).slice(0, 3);
    await db.query('DELETE FROM places WHERE fsq_place_id = ANY($1)', [gone]);
    const left = edited.filter((r) => !gone.includes(r.fsq_place_id));
    expect(await everyPage(f, search(50))).toEqual(expected(at, left));
    await writePlaces(db, edited, namesOf(reference));
    expect(await everyPage(f, search(50))).toEqual(expected(at, edited));
    // What the triggers kept is what the places give, row for row.
    expect(await differences()).toBe(0);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM places_open_kinds');
    expect(rows.rows[0]!.n).toBeGreaterThan(edited.length);
  });

  it('copies, on the bulk path, the rows the server computes, and follows a batch rewritten by the upsert', async () => {
    const db = f.deps.db;
    const names = namesOf(f.places.deps.reference());
    // A place whose id holds what COPY's text format must escape (tab, newline, backslash, a COPY end marker)
    // and characters outside ASCII: its rows must arrive as the server computes them, under that id.
    const awkward: PlaceRecord = {
      ...bareRecord('odd\tid\n\\.\\N é 東京', 'Awkward', HERE.lat + 0.2, HERE.lon),
      fsq_category_ids: ['not-a-category'],
      hours: every('0900', '1700'),
      time_zone: 'Asia/Kathmandu',
    };
    const copy = async () => {
      const builder = new PlacesCopyBuilder(names);
      for (const r of [...records, awkward]) builder.add(r);
      await db.transaction((tx) => copyPlaces(tx, builder.take()));
    };
    await db.exec('DELETE FROM places');
    await copy();
    expect(await differences()).toBe(0);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM places_open_kinds');
    expect(rows.rows[0]!.n).toBeGreaterThan(records.length);
    const odd = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM places_open_kinds WHERE fsq_place_id = $1',
      [awkward.fsq_place_id],
    );
    expect(odd.rows[0]!.n).toBe(1);
    // Again: the COPY meets the places, and the batch is written by the upsert (the triggers' way) instead.
    await copy();
    expect(await differences()).toBe(0);
    const at = new Date(Date.UTC(2025, 9, 30, 9, 45));
    f.clock.set(at);
    expect(await everyPage(f, search(50))).toEqual(expected(at, records));
  });
});

describe('the span of a place in places_open_kinds', () => {
  it('leaves out the longest closure of the week, where the minutes of the day alone would not', async () => {
    // Lunch and dinner from Monday to Saturday in Paris (UTC+1, +2 in summer): the day holds 12:00–23:00 local,
    // 10:00–22:00 UTC at the widest; the week, Monday 12:00 to Saturday 23:00 local, without the Sunday, when
    // the minutes of the day would still take it for open at 22:00.
    const { rows } = await f.deps.db.query<{ corners: number[] }>(
      `SELECT ARRAY[cube_ll_coord(span, 4), cube_ur_coord(span, 4), cube_ll_coord(span, 5), cube_ur_coord(span, 5)]
              AS corners
         FROM places_open_kinds WHERE fsq_place_id = 'kind037'`,
    );
    expect(records[36]).toMatchObject({
      fsq_place_id: 'kind037',
      time_zone: 'Europe/Paris',
      hours: PATTERNS[4],
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.corners.map(Number)).toEqual([600, 1319, 600, 5 * 1440 + 1319]);
    // Over the end of the week: Friday and Saturday nights and Sunday evening into Monday 04:00, in New York.
    const late = records.find((r) => r.hours === PATTERNS[1] && r.time_zone === 'America/New_York')!;
    const wrapped = await f.deps.db.query<{ corners: number[] }>(
      `SELECT ARRAY[cube_ll_coord(span, 5), cube_ur_coord(span, 5)] AS corners
         FROM places_open_kinds WHERE fsq_place_id = $1 LIMIT 1`,
      [late.fsq_place_id],
    );
    // Friday 18:00 local to Monday 04:00 local, UTC-4 and UTC-5: Friday 22:00 to Monday 09:00 UTC.
    expect(wrapped.rows[0]!.corners.map(Number)).toEqual([4 * 1440 + 1320, 7 * 1440 + 9 * 60 - 1]);
  });

  it('migration 0019 gives the places already there their week, as the write path does', async () => {
    const db = f.deps.db;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM places_open_kinds')).rows[0]!.n;
    const rows = await count();
    expect(rows).toBeGreaterThan(records.length);
    // Back to the spans of 0018 (the point and the day), then 0019 as it is.
    await db.exec('UPDATE places_open_kinds SET span = cube_subset(span, ARRAY[1, 2, 3, 4])');
    await db.exec(placesMigrations.find((m) => m.id === 'places/0019_open_kinds_week.sql')!.sql);
    expect(await count()).toBe(rows);
    expect(await differences()).toBe(0);
    const { rows: dims } = await db.query<{ d: number }>(
      'SELECT DISTINCT cube_dim(span) AS d FROM places_open_kinds',
    );
    expect(dims).toEqual([{ d: 5 }]);
    const at = new Date(Date.UTC(2025, 10, 2, 21, 30)); // a Sunday night in Paris
    f.clock.set(at);
    expect(await everyPage(f, search(50))).toEqual(expected(at, records));
  });
});

/** Rows of places_open_kinds that are not what places_open_kinds_of gives for the places, and the other way. */
async function differences(): Promise<number> {
  const { rows } = await f.deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       (SELECT * FROM places_open_kinds EXCEPT ALL SELECT k.* FROM places p, LATERAL places_open_kinds_of(p) k)
       UNION ALL
       (SELECT k.* FROM places p, LATERAL places_open_kinds_of(p) k EXCEPT ALL SELECT * FROM places_open_kinds)) d`,
  );
  return rows[0]!.n;
}
