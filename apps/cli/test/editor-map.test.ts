import { createServer, type Server } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import {
  createIdentity,
  createOrganization,
  createSessionToken,
  type Identity,
  identityMigrations,
  registerApp,
  signUp,
} from '@cairn/identity';
import { createFakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import { createPlacemakers, loadPlacemakersConfig } from '@cairn/placemakers';
import {
  createPlaces,
  DEFAULT_PLACES_CONFIG,
  gazetteer,
  generatePlaces,
  placesMigrations,
} from '@cairn/places';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placesBackend } from '../src/places-backend.ts';

/**
 * Issue 20 §5 in Debian's chromium (WebGL through SwiftShader): the editor's map at city zoom on a place in
 * Lisbon, with Cairn's offline default style and with a configured XYZ raster source (a tile server in this
 * test) and with a PMTiles archive (served by that server). The screenshot must show the basemap's colours
 * over a real share of the map, and the place markers.
 */

type Rgb = [number, number, number];
const hex = (h: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
// The default style's land and water (services/placemakers/src/map/style.ts) and the markers (map-view.tsx).
const LAND = hex('#f1eee6');
const WATER = hex('#a9cfe0');
const MARKER = hex('#d9480f');
// The test tile server's two tile colours, as a checkerboard.
const TILE_A = hex('#4f9d69');
const TILE_B = hex('#d8c27a');
// The test PMTiles archive's one tile colour.
const TILE_C = hex('#8a6fb8');

/** A solid-colour 256×256 PNG (RGB, no filter), written by hand: a test needs no image library. */
function solidPng([r, g, b]: Rgb): Buffer {
  const row = Buffer.alloc(1 + 256 * 3);
  for (let x = 0; x < 256; x++) row.set([r, g, b], 1 + x * 3);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 256 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function varints(values: number[]): number[] {
  const out: number[] = [];
  for (let n of values) {
    while (n >= 0x80) {
      out.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    out.push(n);
  }
  return out;
}

/**
 * A PMTiles (v3) archive, written by hand: every tile of zoom 0 to 12 is the one PNG (a directory entry per
 * zoom, whose run covers all of that zoom's tiles), nothing compressed.
 */
function pmtilesArchive(png: Buffer): Buffer {
  const zooms = Array.from({ length: 13 }, (_, z) => z);
  const ids = zooms.map((z) => (4 ** z - 1) / 3);
  const directory = Buffer.from(
    varints([
      zooms.length,
      ...ids.map((id, i) => id - (i === 0 ? 0 : ids[i - 1]!)),
      ...zooms.map((z) => 4 ** z),
      ...zooms.map(() => png.length),
      ...zooms.map(() => 1), // offset 0, written as offset + 1
    ]),
  );
  const metadata = Buffer.from('{}');
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'latin1');
  header.writeUInt8(3, 7);
  const tilesAt = 127 + directory.length + metadata.length;
  // Root directory, metadata, leaf directories (none) and tile data: offset and length each.
  const u64s = [
    127,
    directory.length,
    127 + directory.length,
    metadata.length,
    tilesAt,
    0,
    tilesAt,
    png.length,
  ];
  // Addressed tiles, tile entries, tile contents.
  u64s.push((4 ** 13 - 1) / 3, zooms.length, 1);
  for (const [i, v] of u64s.entries()) header.writeBigUInt64LE(BigInt(v), 8 + i * 8);
  header.set([0, 1, 1, 2, 0, 12], 96); // not clustered, no compression (both), PNG, zoom 0–12
  const bounds = [-1_800_000_000, -850_000_000, 1_800_000_000, 850_000_000];
  for (const [i, v] of bounds.entries()) header.writeInt32LE(v, 102 + i * 4);
  return Buffer.concat([header, directory, metadata, png]);
}

async function startTileServer(): Promise<{
  server: Server;
  template: string;
  archive: string;
  served: () => number;
}> {
  const tiles = [solidPng(TILE_A), solidPng(TILE_B)];
  const archive = pmtilesArchive(solidPng(TILE_C));
  let served = 0;
  const server = createServer((req, res) => {
    if (req.url === '/world.pmtiles') {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'range' };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '') ?? [];
      if (from === undefined) return res.writeHead(200, cors).end(archive);
      const slice = archive.subarray(Number(from), Number(to) + 1);
      const range = `bytes ${from}-${Number(from) + slice.length - 1}/${archive.length}`;
      return res.writeHead(206, { ...cors, 'content-range': range }).end(slice);
    }
    const m = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    served++;
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end(tiles[(Number(m[2]) + Number(m[3])) % 2]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  return {
    server,
    template: `${base}/tiles/{z}/{x}/{y}.png`,
    archive: `${base}/world.pmtiles`,
    served: () => served,
  };
}

let deps: TestDeps;
let identity: Identity;
let browser: Browser;
let context: BrowserContext;
let defaultUrl: string;
let xyzUrl: string;
let pmtilesUrl: string;
let tileServer: Awaited<ReturnType<typeof startTileServer>>;
let place: { id: string; latitude: number; longitude: number };
const closers: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  deps = await createTestDeps([...identityMigrations, ...placesMigrations], {
    clock: createFakeClock(Date.now()),
  });
  closers.push(() => deps.db.close());
  identity = createIdentity(deps);
  await identity.start();
  closers.unshift(() => identity.stop());
  const places = createPlaces(deps, {
    authenticate: identity.authenticate,
    config: { ...DEFAULT_PLACES_CONFIG, rateLimit: 10_000, rateBurst: 10_000, demoCount: 0 },
  });
  await places.start();
  closers.unshift(() => places.stop());
  const lisbon = gazetteer().resolve('Lisbon, PT')!;
  await generatePlaces(deps.db, { count: 150, seed: 'map', cities: [lisbon] });

  tileServer = await startTileServer();
  closers.unshift(() => tileServer.server.close());
  const backend = placesBackend(places);
  const serve = async (env: Record<string, string>) => {
    const editor = createPlacemakers(
      identity.deps,
      backend,
      deps.config.publicUrl,
      loadPlacemakersConfig(env),
    );
    await editor.start();
    // Two editors on one database: each listens on a port of its own.
    const own = { ...deps, config: { ...deps.config, port: 0 } };
    const server = await serveOnLoopback(own, [identity.module, places.module, editor.module]);
    closers.unshift(() => server.close());
    return server.baseUrl;
  };
  defaultUrl = await serve({});
  xyzUrl = await serve({ PLACES_MAP_STYLE: tileServer.template });
  pmtilesUrl = await serve({ PLACES_MAP_STYLE: `pmtiles://${tileServer.archive}` });

  const org = await createOrganization(identity.deps, 'Map Co');
  const { app } = await registerApp(identity.deps, {
    organizationId: org.id,
    name: 'Atlas',
    redirectUris: ['https://atlas.example.com/cb'],
  });
  const { userId } = await signUp(identity.deps, {
    email: 'mara@example.com',
    displayName: 'Mara Map',
    password: 'maps are for reading',
  });
  // A live access token of the user for the app, as the OAuth code exchange leaves one.
  const { rows } = await deps.db.query<{ id: string }>(
    `INSERT INTO access_tokens (id, token_hash, kind, user_id, organization_id, app_id, created_at, placemaker)
     VALUES (gen_random_uuid(), md5(random()::text), 'oauth_user', $1, $2, $3, now(), true) RETURNING id`,
    [userId, org.id, app.id],
  );
  const auth = {
    kind: 'oauth_user' as const,
    organizationId: org.id,
    appId: app.id,
    userId,
    credentialId: rows[0]!.id,
  };

  // The place nearest Lisbon's centre: the map opens on it.
  const near = (await backend.search(auth, {
    ll: `${lisbon.latitude},${lisbon.longitude}`,
    sort: 'DISTANCE',
    limit: '1',
  })) as { results: { fsq_place_id: string; latitude: number; longitude: number }[] };
  const first = near.results[0]!;
  place = { id: first.fsq_place_id, latitude: first.latitude, longitude: first.longitude };

  browser = await launchBrowser();
  closers.unshift(() => browser.close());
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // One editor session; its cookie (host 127.0.0.1, path /placemakers) serves both editors.
  const { session_token } = await createSessionToken(identity.deps, auth);
  const page = await context.newPage();
  await page.goto(`${defaultUrl}/placemakers/home?session_token=${session_token}`);
  await page.waitForSelector('[data-testid=who]');
  await page.close();
}, 300_000);

afterAll(async () => {
  for (const close of closers) await close();
});

/** Runs in a blank page (the root tsconfig has no DOM types, so it is text): counts pixels near each colour. */
const COUNT_COLOURS = `async ({ base64, colours }) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + base64;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const shares = {};
  for (const [name, [r, g, b]] of Object.entries(colours)) {
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i] - r) <= 10 && Math.abs(data[i + 1] - g) <= 10 && Math.abs(data[i + 2] - b) <= 10) n++;
    shares[name] = n / (data.length / 4);
  }
  return shares;
}`;

/** The share of the image's pixels within 10 per channel of each colour. */
async function colourShares(png: Buffer, colours: Record<string, Rgb>): Promise<Record<string, number>> {
  const scratch = await context.newPage();
  try {
    const count = await scratch.evaluateHandle(COUNT_COLOURS);
    return (await count.evaluate((fn, arg) => (fn as unknown as (a: typeof arg) => unknown)(arg), {
      base64: png.toString('base64'),
      colours,
    })) as Record<string, number>;
  } finally {
    await scratch.close();
  }
}

/** Opens the map at city zoom on the place, waits for the places and an idle map, and shoots the map. */
async function mapAtPlace(base: string, name: string): Promise<{ page: Page; png: Buffer }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // The browser's own favicon.ico request is not the editor's.
    // MapLibre's own errors (a tile or style that did not load) are warnings of the editor's map ("map: …").
    const mapProblem = m.type() === 'warning' && m.text().startsWith('map:');
    if ((m.type() === 'error' || mapProblem) && !m.location().url.endsWith('/favicon.ico'))
      problems.push(`${m.text()} (${m.location().url})`);
  });
  await page.goto(`${base}/placemakers/?at=${place.latitude},${place.longitude},12`);
  await page.waitForSelector('ul.results li a');
  await page.waitForSelector('.map[data-idle="true"]', { timeout: 60_000 });
  // The markers are drawn after the search answers; give the map a frame to settle again.
  await page.waitForTimeout(300);
  await page.waitForSelector('.map[data-idle="true"]', { timeout: 60_000 });
  const png = await page.locator('.map-canvas').screenshot({ path: screenshotPath(name) });
  expect(problems).toEqual([]);
  return { page, png };
}

describe('the place editor’s map', () => {
  it('draws land, water and the places with the offline default style at city zoom', async () => {
    const { page, png } = await mapAtPlace(defaultUrl, 'placemakers-map-default');
    const shares = await colourShares(png, { land: LAND, water: WATER, marker: MARKER });
    expect(shares.land).toBeGreaterThan(0.2);
    expect(shares.water).toBeGreaterThan(0.05);
    expect(shares.marker).toBeGreaterThan(0.0005);
    // The map opened on the place: a click on the marker at its centre opens a place page.
    const box = (await page.locator('.map-canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(/\/placemakers\/place\//, { timeout: 10_000 });
    // The place page shows where the place is, its marker on the basemap.
    const where = page.locator('section[aria-label="Where"]');
    await where.locator('.map[data-idle="true"]').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: screenshotPath('placemakers-place-map') });
    const closeUp = await colourShares(await where.locator('.map-canvas').screenshot(), {
      land: LAND,
      marker: MARKER,
    });
    expect(closeUp.marker).toBeGreaterThan(0.0005);
    expect(closeUp.land! + closeUp.marker!).toBeGreaterThan(0.3);
    await page.close();
  }, 120_000);

  it('draws a configured XYZ raster source (PLACES_MAP_STYLE) with the places on top', async () => {
    const { page, png } = await mapAtPlace(xyzUrl, 'placemakers-map-xyz');
    const shares = await colourShares(png, { a: TILE_A, b: TILE_B, marker: MARKER });
    expect(tileServer.served()).toBeGreaterThan(0);
    expect(shares.a).toBeGreaterThan(0.15);
    expect(shares.b).toBeGreaterThan(0.15);
    expect(shares.marker).toBeGreaterThan(0.0005);
    await page.close();
  }, 120_000);

  it('draws a configured PMTiles archive (pmtiles://) with the places on top', async () => {
    const { page, png } = await mapAtPlace(pmtilesUrl, 'placemakers-map-pmtiles');
    const shares = await colourShares(png, { tile: TILE_C, marker: MARKER });
    expect(shares.tile).toBeGreaterThan(0.5);
    expect(shares.marker).toBeGreaterThan(0.0005);
    await page.close();
  }, 120_000);
});
