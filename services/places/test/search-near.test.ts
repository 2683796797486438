import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;

beforeAll(async () => {
  f = await startPlaces({ count: 300 });
}, 120_000);
afterAll(async () => {
  await f.close();
});

interface Circle {
  center: { latitude: number; longitude: number };
  radius: number;
}

async function circleFor(near: string): Promise<Circle> {
  const res = await callPlaces(f, `/places/search?near=${encodeURIComponent(near)}&limit=5`);
  expect(res.status, `${near}: ${JSON.stringify(res.body)}`).toBe(200);
  const context = res.body.context as { geo_bounds: { circle: Circle } };
  expect(Object.keys(context)).toEqual(['geo_bounds']);
  return context.geo_bounds.circle;
}

describe('GET /places/search?near=', () => {
  it.each([
    ['New York, NY', 40.71, -74.01],
    ['Washington, DC', 38.9, -77.04],
    ['Washington', 38.9, -77.04],
    ['London, UK', 51.51, -0.13],
    ['München', 48.14, 11.58],
    ['Roma', 41.89, 12.51],
    ['東京', 35.69, 139.69],
    ['Москва', 55.75, 37.62],
    ['Ciudad de México', 19.43, -99.13],
  ])('centres the search on %s', async (near, latitude, longitude) => {
    const circle = await circleFor(near);
    expect(circle.center.latitude).toBeCloseTo(latitude, 1);
    expect(circle.center.longitude).toBeCloseTo(longitude, 1);
    expect(circle.radius).toBeGreaterThanOrEqual(3000);
    expect(circle.radius).toBeLessThanOrEqual(30_000);
  });

  it('finds the generated places of Paris by its native, qualified and accentless names alike', async () => {
    const answers = await Promise.all(
      ['Paris, FR', 'Paris, France', 'PARIS', 'paris, île-de-france'].map((near) =>
        callPlaces(f, `/places/search?near=${encodeURIComponent(near)}&limit=5`),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.results!.length).toBe(5);
    }
    const ids = answers.map((res) => res.body.results!.map((place) => place.fsq_place_id));
    for (const other of ids.slice(1)) expect(other).toEqual(ids[0]);
  });

  it('keeps the 400 for text that names no place, and for a radius given with it', async () => {
    const res = await callPlaces(f, '/places/search?near=Xyzzy%20Qqq');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message:
        'Invalid near: "Xyzzy Qqq" is not a place we can geocode; give a city name, optionally with its region or country code (e.g. "Springfield, IL", "Paris, FR"), or use ll',
    });
    const radius = await callPlaces(f, '/places/search?near=Wien&radius=1000&limit=1');
    expect(radius.status).toBe(200);
    expect((radius.body.context as { geo_bounds: { circle: Circle } }).geo_bounds.circle.radius).toBe(1000);
  });

  it('answers 400 naming near for hostile text: too long, control characters, invalid UTF-8', async () => {
    for (const near of [
      encodeURIComponent('Paris, '.repeat(40)),
      'Par%00is',
      'Wien%1B',
      'M%C3nchen',
      '%ED%A0%80',
      encodeURIComponent(','.repeat(150)),
    ]) {
      const res = await callPlaces(f, `/places/search?near=${near}`);
      expect(res.status, near).toBe(400);
      expect(res.body.message, near).toMatch(/near/);
    }
  });
});
