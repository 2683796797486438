import { MAX_TILE_ZOOM } from './tiles.ts';

/** The default style's colours; the editor's Chromium test looks for land and water by them. */
export const COLOURS = {
  water: '#a9cfe0',
  land: '#f1eee6',
  country: '#8f8a9e',
  region: '#b3adc2',
  label: '#3a3a44',
  halo: '#ffffff',
} as const;

/**
 * Cairn's offline MapLibre style: the sea as the background, land on it, country and region borders, and
 * city names, all from /placemakers/map/tiles (tiles.ts). Paths are relative to this server; the editor
 * makes them absolute. There is no `glyphs` URL: MapLibre GL JS draws the labels with the browser's own
 * sans-serif font, so nothing is fetched from elsewhere.
 */
export function defaultStyle(tilesPath: string) {
  return {
    version: 8,
    name: 'Cairn offline',
    sources: {
      cairn: {
        type: 'vector',
        tiles: [`${tilesPath}/{z}/{x}/{y}.pbf`],
        minzoom: 0,
        maxzoom: MAX_TILE_ZOOM,
        attribution: 'Natural Earth · GeoNames (CC BY 4.0)',
      },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': COLOURS.water } },
      {
        id: 'land',
        type: 'fill',
        source: 'cairn',
        'source-layer': 'land',
        paint: { 'fill-color': COLOURS.land, 'fill-antialias': false },
      },
      {
        id: 'regions',
        type: 'line',
        source: 'cairn',
        'source-layer': 'regions',
        minzoom: 3,
        paint: {
          'line-color': COLOURS.region,
          'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 10, 1.5],
          'line-dasharray': [3, 2],
        },
      },
      {
        id: 'countries',
        type: 'line',
        source: 'cairn',
        'source-layer': 'countries',
        paint: {
          'line-color': COLOURS.country,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 6, 1.5, 12, 2.5],
        },
      },
      {
        id: 'cities',
        type: 'symbol',
        source: 'cairn',
        'source-layer': 'cities',
        layout: {
          'text-field': ['get', 'name'],
          'text-font': ['sans-serif'],
          'text-size': [
            'interpolate',
            ['linear'],
            ['get', 'population'],
            1000,
            11,
            1_000_000,
            14,
            10_000_000,
            17,
          ],
          'text-max-width': 8,
          'symbol-sort-key': ['-', ['get', 'population']],
        },
        paint: { 'text-color': COLOURS.label, 'text-halo-color': COLOURS.halo, 'text-halo-width': 1.5 },
      },
    ],
  };
}
