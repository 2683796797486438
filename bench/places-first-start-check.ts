// Issue 41's "What was measured", asked again of a first start: `cairn serve` on a new data directory (the
// embedded database, the demo database built at install), through the HTTP API with the service key the first
// start prints. Each input gets one line, ok or FAIL with what came back; the exit code is the failures' count.
//   node --import tsx bench/places-first-start-check.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-first-start-check-'));
const port = await freePort();
const started = performance.now();
const proc = spawn(process.execPath, ['apps/cli/bin/cairn.js', 'serve'], {
  env: {
    ...process.env,
    CAIRN_DATA_DIR: dir,
    DATABASE_URL: '',
    CAIRN_BOOTSTRAP_SERVICE_KEY: '',
    PORT: String(port),
    EDGE_PORT: String(await freePort()),
    HOST: '127.0.0.1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
let exited = false;
proc.on('exit', () => (exited = true));
const base = `http://127.0.0.1:${port}`;

let failures = 0;
try {
  for (;;) {
    if (exited) throw new Error(`cairn serve exited before ready:\n${out}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(50);
  }
  // The key is printed with the start-up banner, just after the server listens.
  for (let i = 0; i < 100 && !/\bsvk_/.test(out); i++) await sleep(50);
  const key = /\bsvk_[A-Za-z0-9_-]+/.exec(out)?.[0];
  if (!key) throw new Error(`the first start printed no service key:\n${out}`);
  console.log(
    `first start ready in ${((performance.now() - started) / 1000).toFixed(1)} s; service key printed`,
  );

  const get = async (path: string) => {
    const r = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${key}`, 'x-places-api-version': '2025-06-17' },
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const search = (params: Record<string, string>) => get(`/places/search?${new URLSearchParams(params)}`);
  const check = (label: string, ok: boolean, detail: string) => {
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'}  ${label}: ${detail}`);
  };
  type Place = { name: string; categories?: { fsq_category_id: string; name: string }[]; tel?: string };
  const results = (body: Record<string, unknown>) => (body.results ?? []) as Place[];
  const km = (a: { latitude: number; longitude: number }, b: [number, number]) =>
    Math.hypot(a.latitude - b[0], (a.longitude - b[1]) * Math.cos((b[0] * Math.PI) / 180)) * 111.2;

  // `near` geocodes what people type.
  const nearInputs: [string, [number, number]][] = [
    ['New York, NY', [40.71, -74.01]],
    ['Washington, DC', [38.9, -77.04]],
    ['Washington', [38.9, -77.04]],
    ['London, UK', [51.51, -0.13]],
    ['München', [48.14, 11.58]],
    ['Wien', [48.21, 16.37]],
    ['Lisboa', [38.72, -9.14]],
    ['Praha', [50.09, 14.42]],
    ['Firenze', [43.77, 11.25]],
    ['東京', [35.69, 139.69]],
    ['Москва', [55.75, 37.62]],
    ['Ciudad de México', [19.43, -99.13]],
    ['Roma', [41.89, 12.51]],
  ];
  for (const [near, at] of nearInputs) {
    const { status, body } = await search({ near, limit: '1' });
    const center = (
      body.context as { geo_bounds?: { circle?: { center: { latitude: number; longitude: number } } } }
    )?.geo_bounds?.circle?.center;
    const off = center ? km(center, at) : Number.NaN;
    check(
      `near=${near}`,
      status === 200 && off < 15,
      status === 200
        ? `centre ${center?.latitude.toFixed(2)},${center?.longitude.toFixed(2)} (${off.toFixed(1)} km off)`
        : `${status} ${body.message}`,
    );
  }

  // Everyday queries find enough of what they ask for.
  const everyday: [Record<string, string>, (p: Place) => boolean][] = [
    [{ query: 'pizza', near: 'Rome' }, (p) => p.categories?.some((c) => /pizz/i.test(c.name)) ?? false],
    [{ query: 'sushi', near: 'Tokyo' }, (p) => p.categories?.some((c) => /sushi/i.test(c.name)) ?? false],
    [{ query: 'starbucks', near: 'London' }, (p) => /starbucks/i.test(p.name)],
  ];
  // Enough of them (five, or all the chain's four in a city), and first: nothing else before one that fits.
  for (const [params, fits] of everyday) {
    const { status, body } = await search({ ...params, limit: '10' });
    const list = results(body);
    const fitting = list.filter(fits).length;
    const firstMiss = list.findIndex((p) => !fits(p));
    const leading = firstMiss === -1 ? list.length : firstMiss;
    check(
      new URLSearchParams(params).toString(),
      status === 200 && leading >= Math.min(5, fitting) && fitting >= 4,
      `${status}, ${list.length} results, ${fitting} fit, the first ${leading} fit: ${list
        .slice(0, 6)
        .map((p) => p.name)
        .join('; ')}`,
    );
  }

  // The real category ids filter; unknown ids and the old parameter names are 400s naming the parameter.
  for (const id of ['4bf58dd8d48988d1e0931735', '13032']) {
    const { status, body } = await search({ fsq_category_ids: id, near: 'Paris, FR', limit: '10' });
    const list = results(body);
    const coffee = list.filter((p) => p.categories?.some((c) => /coffee|café|cafe/i.test(c.name))).length;
    check(
      `fsq_category_ids=${id}`,
      status === 200 && list.length >= 5 && coffee === list.length,
      `${status}, ${list.length} results, ${coffee} coffee shops (${list[0]?.categories?.map((c) => c.name).join(', ')})`,
    );
  }
  for (const [name, value, names] of [
    ['fsq_category_ids', 'ffffffffffffffffffffffff', 'fsq_category_ids'],
    ['categories', '13032', 'categories'],
    ['chains', 'ab4c54c0-d68a-012e-5619-003048cad9da', 'chains'],
    ['exclude_chains', 'ab4c54c0-d68a-012e-5619-003048cad9da', 'exclude_chains'],
  ] as const) {
    const { status, body } = await search({ [name]: value, near: 'Paris, FR' });
    const message = String(body.message ?? '');
    check(
      `${name}=${value}`,
      status === 400 && message.includes(names),
      `${status} ${message.slice(0, 120)}`,
    );
  }
  const categories = await get('/places/categories');
  const listed = JSON.stringify(categories.body).match(/fsq_category_id/g)?.length ?? 0;
  check(
    'GET /places/categories',
    categories.status === 200 && listed > 1000,
    `${categories.status}, ${listed} ids`,
  );

  // A phone number finds the place that has it, in E.164 and in national form, spaced or not.
  const sample = results(
    (await search({ query: 'pharmacie', near: 'Paris, FR', fields: 'name,tel', limit: '5' })).body,
  );
  const withTel = sample.find((p) => p.tel);
  if (!withTel) check('phone search', false, 'no place near Paris shows a tel');
  else {
    // The French national form: the trunk 0 and the digits in pairs ("01 08 50 77 95").
    const digits = withTel.tel!.replace(/\D/g, '');
    const e164 = `+${digits.startsWith('33') ? digits : `33${digits.slice(1)}`}`;
    const national = `0${e164.slice(3)}`.replace(/(\d\d)(?=\d)/g, '$1 ');
    for (const query of [e164, national, national.replace(/ /g, '')]) {
      const list = results(
        (await search({ query, near: 'Paris, FR', fields: 'name,tel', limit: '10' })).body,
      );
      check(
        `query=${query}`,
        list.some((p) => p.name === withTel.name && p.tel === withTel.tel),
        `${list.length} results; ${withTel.name} (${withTel.tel}) ${list.some((p) => p.name === withTel.name) ? 'found' : 'not found'}`,
      );
    }
  }
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => (exited ? r(undefined) : proc.on('exit', r)));
  rmSync(dir, { recursive: true, force: true });
}
console.log(failures === 0 ? 'every input answered right' : `${failures} failed`);
process.exitCode = failures === 0 ? 0 : 1;
