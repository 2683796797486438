import { badRequest } from '@cairn/kit';
import type { FastifyInstance } from 'fastify';
import type { MapStyle } from '../map/config.ts';
import { defaultStyle } from '../map/style.ts';
import { basemapTile, isTile, MAX_TILE_ZOOM } from '../map/tiles.ts';

const TILES = '/placemakers/map/tiles';
const CACHED_TILES = 4096;

/** The origins the editor page may fetch map data from (its Content-Security-Policy's connect-src). */
export function mapOrigins(style: MapStyle): string[] {
  switch (style.kind) {
    case 'default':
      return [];
    case 'xyz':
      return [new URL(style.template.replace(/\{[zxy]\}/g, '0')).origin];
    case 'pmtiles':
      return [new URL(style.url.slice('pmtiles://'.length)).origin];
    case 'style':
      // A style names its tiles, sprites and glyphs on hosts of its own choosing.
      return ['https:', new URL(style.url).origin];
  }
}

/**
 * Cairn's own basemap, public like the data it is drawn from: the style (GET /placemakers/map/style.json)
 * and its vector tiles (GET /placemakers/map/tiles/{z}/{x}/{y}.pbf, zoom 0–12; MapLibre draws closer
 * zooms from zoom 12's tiles). Tiles are cut on request and the most recent 4,096 are kept.
 */
export async function mapRoutes(app: FastifyInstance) {
  const cache = new Map<string, Uint8Array>();
  const hide = { schema: { hide: true } };

  app.get('/placemakers/map/style.json', hide, async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=3600');
    return defaultStyle(TILES);
  });

  app.get<{ Params: { z: string; x: string; y: string } }>(
    `${TILES}/:z/:x/:y.pbf`,
    hide,
    async (request, reply) => {
      const [z, x, y] = [request.params.z, request.params.x, request.params.y].map((v) =>
        /^\d{1,7}$/.test(v) ? Number(v) : Number.NaN,
      ) as [number, number, number];
      if (!isTile(z, x, y)) {
        throw badRequest(
          `No tile ${request.params.z}/${request.params.x}/${request.params.y}: the zoom is 0 to ${MAX_TILE_ZOOM}, and x and y are 0 to 2^zoom − 1`,
        );
      }
      const key = `${z}/${x}/${y}`;
      let tile = cache.get(key);
      if (tile) cache.delete(key);
      else tile = basemapTile(z, x, y);
      cache.set(key, tile);
      if (cache.size > CACHED_TILES) cache.delete(cache.keys().next().value!);
      return reply
        .header('content-type', 'application/vnd.mapbox-vector-tile')
        .header('cache-control', 'public, max-age=86400')
        .send(Buffer.from(tile.buffer, tile.byteOffset, tile.byteLength));
    },
  );
}
