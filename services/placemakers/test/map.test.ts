import { ConfigError, errorHandler, messageShape } from '@cairn/kit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlacemakersConfig } from '../src/map/config.ts';
import { mapOrigins, mapRoutes } from '../src/server/map-routes.ts';

const styleOf = (value: string) => loadPlacemakersConfig({ PLACES_MAP_STYLE: value }).mapStyle;

describe('PLACES_MAP_STYLE', () => {
  it('is Cairn’s own offline style when unset or empty', () => {
    expect(loadPlacemakersConfig({}).mapStyle).toEqual({ kind: 'default' });
    expect(styleOf('  ')).toEqual({ kind: 'default' });
  });

  it('tells a style URL, an XYZ template and a PMTiles archive apart', () => {
    expect(styleOf('https://tiles.example.com/styles/basic/style.json')).toEqual({
      kind: 'style',
      url: 'https://tiles.example.com/styles/basic/style.json',
    });
    expect(styleOf('https://tiles.example.com/{z}/{x}/{y}.png')).toEqual({
      kind: 'xyz',
      template: 'https://tiles.example.com/{z}/{x}/{y}.png',
    });
    expect(styleOf('pmtiles://https://tiles.example.com/world.pmtiles')).toEqual({
      kind: 'pmtiles',
      url: 'pmtiles://https://tiles.example.com/world.pmtiles',
    });
  });

  it('stops the start with what is wrong and what is expected', () => {
    const cases: [string, RegExp][] = [
      ['tiles.example.com/style.json', /the style URL "tiles.example.com\/style.json" is not a URL/],
      ['ftp://tiles.example.com/style.json', /must be http:\/\/ or https:\/\//],
      ['https://tiles.example.com/{z}/{x}.png', /the XYZ template .* lacks \{y\}/],
      ['pmtiles://world.pmtiles', /the PMTiles archive "world.pmtiles" is not a URL/],
    ];
    for (const [value, message] of cases) {
      let error: unknown;
      try {
        styleOf(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^PLACES_MAP_STYLE: /);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/expected a MapLibre style URL/);
    }
  });

  it('opens the editor page’s connect-src to the configured origin only', () => {
    expect(mapOrigins({ kind: 'default' })).toEqual([]);
    expect(mapOrigins(styleOf('https://a.example.com/{z}/{x}/{y}.png'))).toEqual(['https://a.example.com']);
    expect(mapOrigins(styleOf('pmtiles://https://b.example.com/w.pmtiles'))).toEqual([
      'https://b.example.com',
    ]);
  });
});

describe('the offline basemap', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.setErrorHandler(errorHandler(messageShape));
    await app.register(mapRoutes);
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves a style whose only source is Cairn’s tiles, with no glyphs URL', async () => {
    const res = await app.inject('/placemakers/map/style.json');
    expect(res.statusCode).toBe(200);
    const style = res.json() as { sources: Record<string, { tiles: string[] }>; glyphs?: string };
    expect(Object.values(style.sources).flatMap((s) => s.tiles)).toEqual([
      '/placemakers/map/tiles/{z}/{x}/{y}.pbf',
    ]);
    expect(style.glyphs).toBeUndefined();
  });

  it('cuts a vector tile with land, borders and city names', async () => {
    // Zoom 6 around Lisbon: the coast, the border with Spain, Portuguese region borders, Lisbon's name.
    const res = await app.inject('/placemakers/map/tiles/6/30/24.pbf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    const body = res.rawPayload.toString('latin1');
    for (const layer of ['land', 'countries', 'regions', 'cities']) expect(body).toContain(layer);
    expect(body).toContain('Lisbon');
  }, 60_000);

  it('answers 400 with the valid range for a tile that does not exist', async () => {
    for (const path of ['13/0/0', '2/4/0', '2/0/-1', 'a/b/c']) {
      const res = await app.inject(`/placemakers/map/tiles/${path}.pbf`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/zoom is 0 to 12, and x and y are 0 to 2\^zoom − 1/);
    }
  });
});
