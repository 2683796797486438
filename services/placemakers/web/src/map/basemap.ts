// Loaded only by pages with a map (a dynamic import): MapLibre GL JS and PMTiles are most of its weight.
import 'maplibre-gl/dist/maplibre-gl.css';
import { addProtocol, Map as MapLibreMap, type MapOptions, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { PMTiles, Protocol, TileType } from 'pmtiles';
import type { MapStyle } from '../api.ts';

type Style = Exclude<MapOptions['style'], string | undefined>;
type Layer = Style['layers'][number];

setWorkerUrl(workerUrl);
const pmtiles = new Protocol({ metadata: true });
addProtocol('pmtiles', pmtiles.tile);

const WATER = /water|ocean|sea|lake|river/i;

/** Cairn's own style names its tiles by path; MapLibre's workers need absolute URLs. */
function absolute(style: Style): Style {
  for (const source of Object.values(style.sources)) {
    if ('tiles' in source && source.tiles) {
      source.tiles = source.tiles.map((t) => (t.startsWith('/') ? window.location.origin + t : t));
    }
  }
  return style;
}

/** A raster basemap: XYZ tiles (up to zoom 19), or a PMTiles archive whose header gives its zooms. */
function rasterStyle(source: { tiles: string[]; maxzoom: number } | { url: string }): Style {
  return {
    version: 8,
    sources: { basemap: { type: 'raster', tileSize: 256, ...source } },
    layers: [{ id: 'basemap', type: 'raster', source: 'basemap' }],
  };
}

/**
 * A vector PMTiles archive whose schema we do not know: each of its layers drawn plainly (areas filled,
 * lines stroked, points named), water-like layer names in blue.
 */
function vectorStyle(url: string, layers: { id: string }[]): Style {
  const drawn: Layer[] = [{ id: 'background', type: 'background', paint: { 'background-color': '#f1eee6' } }];
  for (const { id } of layers) {
    const water = WATER.test(id);
    const base = { source: 'basemap', 'source-layer': id } as const;
    drawn.push(
      {
        id: `${id}-fill`,
        type: 'fill',
        ...base,
        filter: ['==', ['geometry-type'], 'Polygon'],
        paint: { 'fill-color': water ? '#a9cfe0' : '#e6e2d8', 'fill-opacity': water ? 1 : 0.6 },
      },
      {
        id: `${id}-line`,
        type: 'line',
        ...base,
        filter: ['==', ['geometry-type'], 'LineString'],
        paint: { 'line-color': water ? '#7fb3cc' : '#b8b4aa', 'line-width': 1 },
      },
      {
        id: `${id}-label`,
        type: 'symbol',
        ...base,
        filter: ['==', ['geometry-type'], 'Point'],
        layout: { 'text-field': ['coalesce', ['get', 'name:en'], ['get', 'name']], 'text-size': 12 },
        paint: { 'text-color': '#3a3a44', 'text-halo-color': '#fff', 'text-halo-width': 1.5 },
      },
    );
  }
  return { version: 8, sources: { basemap: { type: 'vector', url } }, layers: drawn };
}

async function pmtilesStyle(url: string): Promise<Style> {
  const archive = new PMTiles(url.slice('pmtiles://'.length));
  pmtiles.add(archive);
  const header = await archive.getHeader();
  if (header.tileType !== TileType.Mvt) return rasterStyle({ url });
  const metadata = (await archive.getMetadata()) as { vector_layers?: { id: string }[] };
  return vectorStyle(url, metadata.vector_layers ?? []);
}

/** The style MapLibre loads for PLACES_MAP_STYLE: a URL it fetches itself, or a style built here. */
async function styleFor(config: MapStyle): Promise<string | Style> {
  switch (config.kind) {
    case 'style':
      return config.url;
    case 'xyz':
      return rasterStyle({ tiles: [config.template], maxzoom: 19 });
    case 'pmtiles':
      return pmtilesStyle(config.url);
    default: {
      const response = await fetch('/placemakers/map/style.json');
      if (!response.ok) throw new Error(`The map style did not load (${response.status})`);
      return absolute((await response.json()) as Style);
    }
  }
}

export async function createMap(
  container: HTMLElement,
  config: MapStyle,
  view: { longitude: number; latitude: number; zoom: number },
): Promise<MapLibreMap> {
  return new MapLibreMap({
    container,
    style: await styleFor(config),
    center: [view.longitude, view.latitude],
    zoom: view.zoom,
    maxZoom: 19,
    dragRotate: false,
    pitchWithRotate: false,
    attributionControl: { compact: true },
  });
}

export type { MapLibreMap };
