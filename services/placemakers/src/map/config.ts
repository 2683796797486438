import { ConfigError } from '@cairn/kit';

/**
 * The basemap the editor draws under the places (PLACES_MAP_STYLE):
 * - unset: Cairn's own offline style (`/placemakers/map/style.json`: land, water, country and region
 *   boundaries, city names, from Natural Earth and GeoNames data shipped in npm packages);
 * - a MapLibre style JSON URL (`https://tiles.example.com/styles/basic/style.json`);
 * - an XYZ raster template with `{z}`, `{x}` and `{y}` (`https://tiles.example.com/{z}/{x}/{y}.png`);
 * - a PMTiles archive (`pmtiles://https://tiles.example.com/world.pmtiles`), raster or vector.
 */
export type MapStyle =
  | { kind: 'default' }
  | { kind: 'style'; url: string }
  | { kind: 'xyz'; template: string }
  | { kind: 'pmtiles'; url: string };

export interface PlacemakersConfig {
  mapStyle: MapStyle;
}

export const DEFAULT_PLACEMAKERS_CONFIG: Readonly<PlacemakersConfig> = Object.freeze({
  mapStyle: { kind: 'default' as const },
});

const VARIABLE = 'PLACES_MAP_STYLE';
const EXPECTED =
  'expected a MapLibre style URL (https://…/style.json), an XYZ raster template (https://…/{z}/{x}/{y}.png) or a PMTiles URL (pmtiles://https://…/world.pmtiles)';

function httpUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(VARIABLE, `${what} "${raw}" is not a URL; ${EXPECTED}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(VARIABLE, `${what} "${raw}" must be http:// or https://; ${EXPECTED}`);
  }
  return url;
}

/** Reads PLACES_MAP_STYLE; a value that is none of the three forms stops the start with what is expected. */
export function parseMapStyle(raw: string | undefined): MapStyle {
  const value = raw?.trim() ?? '';
  if (value === '') return { kind: 'default' };
  if (value.startsWith('pmtiles://')) {
    const archive = value.slice('pmtiles://'.length);
    httpUrl(archive, 'the PMTiles archive');
    return { kind: 'pmtiles', url: value };
  }
  const placeholders = ['{z}', '{x}', '{y}'].filter((p) => value.includes(p));
  if (placeholders.length > 0) {
    const missing = ['{z}', '{x}', '{y}'].filter((p) => !value.includes(p));
    if (missing.length > 0) {
      throw new ConfigError(
        VARIABLE,
        `the XYZ template "${value}" lacks ${missing.join(' and ')}; ${EXPECTED}`,
      );
    }
    httpUrl(value.replace(/\{[zxy]\}/g, '0'), 'the XYZ template');
    return { kind: 'xyz', template: value };
  }
  httpUrl(value, 'the style URL');
  return { kind: 'style', url: value };
}

export function loadPlacemakersConfig(env: Record<string, string | undefined>): Readonly<PlacemakersConfig> {
  return Object.freeze({ mapStyle: parseMapStyle(env[VARIABLE]) });
}
