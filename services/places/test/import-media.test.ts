import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPlacesFile } from '../src/index.ts';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

/** Issue 20 §3: the importer reads tips and photos where the file has them (optional tips/photos columns). */
let f: PlacesFixture;
let dir: string;
beforeAll(async () => {
  f = await startPlaces();
  dir = mkdtempSync(join(tmpdir(), 'cairn-places-import-media-'));
}, 120_000);
afterAll(async () => {
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

const csvCell = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
const id = (n: number) => `ab${String(n).padStart(22, '0')}`;

describe('importing tips and photos', () => {
  it('stores the tips and photos of a row; an imported place shows only its own', async () => {
    const tips = [
      {
        fsq_tip_id: 't1',
        created_at: '2024-05-01T10:00:00Z',
        text: 'Try the onion soup.',
        lang: 'en',
        agree_count: 7,
      },
      { fsq_tip_id: 't2', created_at: '2024-06-01T10:00:00Z', text: 'Cash only.', disagree_count: 1 },
    ];
    const photos = [
      {
        id: 'p1',
        created_at: '2024-05-02T10:00:00Z',
        prefix: 'https://img.example/',
        suffix: '/p1.jpg',
        width: 800,
        height: 600,
        classifications: ['food_or_drink'],
      },
    ];
    const file = join(dir, 'with-media.csv');
    writeFileSync(
      file,
      [
        'fsq_place_id,name,latitude,longitude,country,tips,photos',
        `${id(1)},Le Bouillon,48.8566,2.3522,FR,${csvCell(tips)},${csvCell(photos)}`,
        `${id(2)},No Media,48.857,2.353,FR,,`,
        `${id(3)},Bad Tips,48.857,2.353,FR,${csvCell([{ fsq_tip_id: 'x', text: 'no date' }])},`,
        `${id(4)},Bad Photo,48.857,2.353,FR,,${csvCell([{ ...photos[0], id: 'p4', classifications: ['selfie'] }])}`,
        `${id(5)},Not JSON,48.857,2.353,FR,[oops,`,
      ].join('\n'),
    );
    const result = await importPlacesFile(f.deps.db, file);
    expect(result).toMatchObject({ imported: 2, bad: 3 });
    expect(result.badRows.map((b) => b.reason)).toEqual([
      'tips[0].created_at must be text of 1 to 40 characters',
      'photos[0].classifications must be a list of exhibit, facilities, food_or_drink, indoor_facilities_and_classrooms, indoor_general, indoor_or_ambience, logos, menu, monuments_and_landmark_buildings, outdoor, outdoor_building_and_grounds, outdoor_building_exterior, outdoor_grounds, outdoor_or_storefront, outdoor_scenery, product',
      'tips is not a JSON list',
    ]);

    const listed = await callPlaces(
      f,
      `/places/${id(1)}/tips?fields=fsq_tip_id,created_at,text,lang,agree_count,disagree_count`,
    );
    expect(listed.body).toEqual([
      {
        fsq_tip_id: 't1',
        created_at: '2024-05-01T10:00:00.000Z',
        text: 'Try the onion soup.',
        lang: 'en',
        agree_count: 7,
        disagree_count: 0,
      },
      {
        fsq_tip_id: 't2',
        created_at: '2024-06-01T10:00:00.000Z',
        text: 'Cash only.',
        agree_count: 0,
        disagree_count: 1,
      },
    ]);
    const shown = await callPlaces(f, `/places/${id(1)}/photos`);
    expect(shown.body).toEqual([{ ...photos[0], created_at: '2024-05-02T10:00:00.000Z' }]);
    const none = await callPlaces(f, `/places/${id(2)}?fields=tips,photos,stats`);
    expect(none.body).toEqual({ stats: { total_photos: 0, total_ratings: 0, total_tips: 0 } });
    expect((await callPlaces(f, `/places/${id(2)}/tips`)).body).toEqual([]);

    // Importing the same file again adds nothing twice.
    await importPlacesFile(f.deps.db, file);
    const again = await callPlaces(f, `/places/${id(1)}?fields=stats`);
    expect(again.body).toEqual({ stats: { total_photos: 1, total_ratings: 0, total_tips: 2 } });
  });
});
