import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPlacesFile } from '../src/index.ts';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
let dir: string;
beforeAll(async () => {
  f = await startPlaces();
  dir = mkdtempSync(join(tmpdir(), 'cairn-places-import-'));
}, 120_000);
afterAll(async () => {
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

const KOREAN = '4bf58dd8d48988d113941735';
/** A place id in the dataset's shape (24 hex digits), starting with a hex tag that count() can find. */
const pid = (tag: string, n: number) => tag + String(n).padStart(24 - tag.length, '0');
const [PQ, CSV, ST, RE] = ['aa', 'cc', 'dd', 'ee'];
const LABEL = 'Dining and Drinking > Restaurant > Asian Restaurant > Korean Restaurant';

async function count(prefix: string) {
  const { rows } = await f.deps.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM places WHERE fsq_place_id LIKE $1',
    [`${prefix}%`],
  );
  return rows[0]!.n;
}

describe('import of the open places dataset', () => {
  it('imports a Parquet file, reports bad rows by row number, and the places are searchable', async () => {
    const file = join(dir, 'places.parquet');
    const n = 6;
    parquetWriteFile({
      filename: file,
      columnData: [
        {
          name: 'fsq_place_id',
          data: [pid(PQ, 1), pid(PQ, 2), pid(PQ, 3), '', pid(PQ, 5), pid(PQ, 6)].slice(0, n),
          type: 'STRING',
        },
        {
          name: 'name',
          data: ['Seoul Garden', 'Kimchi House', 'No Coordinates', 'No Id', 'Bad Date', 'Far North'],
          type: 'STRING',
        },
        { name: 'latitude', data: [37.5665, 37.567, null, 37.5, 37.5, 95], type: 'DOUBLE' },
        { name: 'longitude', data: [126.978, 126.979, 126.9, 126.9, 126.9, 10], type: 'DOUBLE' },
        { name: 'address', data: ['1 Sejong-daero', null, null, null, null, null], type: 'STRING' },
        { name: 'locality', data: ['Seoul', 'Seoul', null, null, null, null], type: 'STRING' },
        { name: 'country', data: ['KR', 'KR', 'KR', 'KR', 'KR', 'NO'], type: 'STRING' },
        {
          name: 'date_created',
          data: ['2014-05-01', '2019-11-30', null, null, 'yesterday', null],
          type: 'STRING',
        },
        { name: 'fsq_category_ids', data: [[KOREAN], [KOREAN], [], [], [], []] },
        { name: 'fsq_category_labels', data: [[LABEL], [LABEL], [], [], [], []] },
        { name: 'unresolved_flags', data: [[], ['duplicate'], [], [], [], []] },
      ],
    });
    const result = await importPlacesFile(f.deps.db, file);
    expect(result).toMatchObject({ format: 'parquet', imported: 2, bad: 4, categoriesAdded: 1 });
    expect(result.badRows.map((b) => b.where)).toEqual(['row 3', 'row 4', 'row 5', 'row 6']);
    expect(result.badRows[0]!.reason).toMatch(/latitude/);
    expect(result.badRows[1]!.reason).toMatch(/fsq_place_id/);
    expect(result.badRows[2]!.reason).toMatch(/date_created/);
    await f.places.reload();
    const res = await callPlaces(
      f,
      `/places/search?ll=37.5665,126.978&radius=1000&fsq_category_ids=${KOREAN}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.results!.map((r) => r.name)).toEqual(['Seoul Garden', 'Kimchi House']);
    expect(res.body.results![0]!.categories).toEqual([
      {
        fsq_category_id: KOREAN,
        name: 'Korean Restaurant',
        short_name: 'Korean Restaurant',
        plural_name: 'Korean Restaurants',
      },
    ]);
    const view = await f.deps.db.query<{ geom: Uint8Array; bbox: unknown }>(
      `SELECT geom, bbox FROM fsq_os_places WHERE fsq_place_id = '${pid(PQ, 1)}'`,
    );
    expect(Buffer.from(view.rows[0]!.geom).length).toBe(21);
    expect(view.rows[0]!.bbox).toEqual({ xmin: 126.978, ymin: 37.5665, xmax: 126.978, ymax: 37.5665 });
  });

  it('imports CSV with quoted fields and JSON or bracketed lists, reporting bad lines by line number', async () => {
    const file = join(dir, 'places.csv');
    writeFileSync(
      file,
      [
        'fsq_place_id,name,latitude,longitude,address,locality,region,postcode,admin_region,post_town,po_box,country,date_created,date_refreshed,date_closed,tel,website,email,facebook_id,instagram,twitter,fsq_category_ids,fsq_category_labels,placemaker_url,unresolved_flags,geom,bbox',
        `${pid(CSV, 1)},"Café ""Le Zinc""",48.8566,2.3522,"12 Rue de Rivoli, Paris",Paris,Île-de-France,75004,,,,FR,2015-03-01,2024-01-02,,+33142000000,,,,,,"[""${KOREAN}""]","[""${LABEL}""]",,[],,`,
        `${pid(CSV, 2)},"A name
spanning lines",48.857,2.353,,,,,,,,FR,,,,,,,,,,[${KOREAN}],[${LABEL}],,,,`,
        `${pid(CSV, 3)},Too Few Fields,48.8,2.3`,
        `${pid(CSV, 4)},Bad Latitude,north,2.3,,,,,,,,FR,,,,,,,,,,,,,,,`,
        `${pid(CSV, 5)},Mismatched Lists,48.85,2.35,,,,,,,,FR,,,,,,,,,,"[""a"",""b""]","[""A""]",,,,`,
      ].join('\r\n'),
    );
    const result = await importPlacesFile(f.deps.db, file);
    expect(result).toMatchObject({ format: 'csv', imported: 2, bad: 3 });
    expect(result.badRows.map((b) => b.where)).toEqual(['line 5', 'line 6', 'line 7']);
    const res = await callPlaces(f, `/places/${pid(CSV, 1)}`);
    expect(res.body).toMatchObject({
      name: 'Café "Le Zinc"',
      location: { address: '12 Rue de Rivoli, Paris', postcode: '75004', country: 'FR' },
      tel: '+33142000000',
    });
    const two = await callPlaces(f, `/places/${pid(CSV, 2)}?fields=name,categories`);
    expect(two.body.name).toBe('A name\nspanning lines');
  });

  it('is all or nothing: with more bad rows than allowed, nothing is written', async () => {
    const file = join(dir, 'strict.csv');
    writeFileSync(
      file,
      [
        'fsq_place_id,name,latitude,longitude',
        `${pid(ST, 1)},Good,10,10`,
        `${pid(ST, 2)},Good Too,10,10.1`,
        `${pid(ST, 3)},Bad,x,10`,
        `${pid(ST, 4)},Good Again,10,10.2`,
      ].join('\n'),
    );
    // The bad row is read while the batch before it is being written (batches of one row, a row after it in the
    // same chunk of the file): the refusal waits for that write before rolling back.
    await expect(importPlacesFile(f.deps.db, file, { maxBad: 0, batchSize: 1 })).rejects.toThrow(
      /nothing was written.*line 4: latitude/,
    );
    expect(await count(ST)).toBe(0);
    const relaxed = await importPlacesFile(f.deps.db, file, { maxBad: 1 });
    expect(relaxed).toMatchObject({ imported: 3, bad: 1 });
    expect(await count(ST)).toBe(3);
  });

  it('refuses ids that are not in the dataset’s shape (24 lower-case hex digits), naming the row', async () => {
    const file = join(dir, 'ids.csv');
    writeFileSync(
      file,
      [
        'fsq_place_id,name,latitude,longitude',
        'search,Route Name,1,1',
        `${pid('ff', 1).toUpperCase()},Upper,1,1`,
      ].join('\n'),
    );
    const result = await importPlacesFile(f.deps.db, file);
    expect(result).toMatchObject({ imported: 0, bad: 2 });
    expect(result.badRows.map((b) => b.reason)).toEqual([
      expect.stringMatching(/^fsq_place_id "search" is not 24 lower-case hexadecimal digits/),
      expect.stringMatching(/^fsq_place_id "FF0+1" is not 24 lower-case hexadecimal digits/),
    ]);
  });

  it('refuses a file without the dataset columns, and a missing file, naming them', async () => {
    const file = join(dir, 'other.csv');
    writeFileSync(file, 'id,title\n1,x\n');
    await expect(importPlacesFile(f.deps.db, file)).rejects.toThrow(
      /lacks the column\(s\) fsq_place_id, name, latitude, longitude/,
    );
    await expect(importPlacesFile(f.deps.db, join(dir, 'nope.parquet'))).rejects.toThrow(/no such file/);
  });

  it('re-importing replaces rows rather than duplicating them', async () => {
    const file = join(dir, 'again.csv');
    writeFileSync(file, `fsq_place_id,name,latitude,longitude\n${pid(RE, 1)},First,1,1\n`);
    await importPlacesFile(f.deps.db, file);
    writeFileSync(file, `fsq_place_id,name,latitude,longitude\n${pid(RE, 1)},Second,1,1\n`);
    await importPlacesFile(f.deps.db, file);
    expect(await count(pid(RE, 1))).toBe(1);
    expect((await callPlaces(f, `/places/${pid(RE, 1)}`)).body.name).toBe('Second');
  });
});

describe('import by COPY: what a file may hold', () => {
  const DU = 'ab';
  const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const HOSTILE = 'Tab\there \\N back\\slash "q" {a,b} 😀\nnext line';
  const ODD_LABEL = 'Odd > Cat "quoted" \\ {a,b}, \\N';

  it('keeps the later row of a place named twice (in one batch and across batches), and text as written', async () => {
    const file = join(dir, 'twice.csv');
    const lines = [
      'fsq_place_id,name,latitude,longitude,address,fsq_category_ids,fsq_category_labels',
      `${pid(DU, 1)},Old,1,1,,,`,
      `${pid(DU, 2)},${csvCell(HOSTILE)},1,1,${csvCell('\\t\t\\\\')},${csvCell(JSON.stringify(['0123456789abcdef01234567']))},${csvCell(JSON.stringify([ODD_LABEL]))}`,
      `${pid(DU, 3)},A,1,1,,,`,
      `${pid(DU, 3)},B,1,1,,,`,
      `${pid(DU, 5)},X,1,1,,,`,
      `${pid(DU, 5)},Y,1,1,,,`,
      `${pid(DU, 1)},New,1,1,,,`,
      `${pid(DU, 8)},Nul,1,1,${csvCell('a\u0000b')},,`,
      `${pid(DU, 9)},Nul In A List,1,1,,${csvCell(JSON.stringify(['x']))},${csvCell(JSON.stringify(['A > B\u0000']))}`,
    ];
    writeFileSync(file, lines.join('\n'));
    const result = await importPlacesFile(f.deps.db, file, { batchSize: 3 });
    expect(result.bad).toBe(2);
    expect(result.badRows.map((b) => b.reason)).toEqual([
      'address contains a NUL character (U+0000), which cannot be stored',
      'fsq_category_labels contains a NUL character (U+0000), which cannot be stored',
    ]);
    const { rows } = await f.deps.db.query<{
      fsq_place_id: string;
      name: string;
      address: string | null;
      fsq_category_labels: string[];
    }>(
      'SELECT fsq_place_id, name, address, fsq_category_labels FROM places WHERE fsq_place_id LIKE $1 ORDER BY 1',
      [`${DU}%`],
    );
    expect(rows.map((r) => [r.fsq_place_id, r.name])).toEqual([
      [pid(DU, 1), 'New'],
      [pid(DU, 2), HOSTILE],
      [pid(DU, 3), 'B'],
      [pid(DU, 5), 'Y'],
    ]);
    expect(rows[1]!.address).toBe('\\t\t\\\\');
    expect(rows[1]!.fsq_category_labels).toEqual([ODD_LABEL]);
    expect(rows[0]!.address).toBeNull();
    const found = await callPlaces(f, `/places/${pid(DU, 2)}?fields=name,location`);
    expect(found.body.name).toBe(HOSTILE);
  });
});
