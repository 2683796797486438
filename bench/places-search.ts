// Benchmark: the places search API on 1,000,000 generated places, over loopback, on the engine of the
// environment (PGlite in memory, or PostgreSQL with DATABASE_URL=…). Prints the time to generate and to import
// 1M places, and median/p99 latency and requests/s for (a) ll+radius nearest, (b) query+ll,
// (c) category+open_now+ll, (d) near. Targets: generate < 3 min, import < 2 min, p99 < 25 ms on PostgreSQL (a–c).
// Run: npx tsx bench/places-search.ts [seconds per scenario, default 10] [connections, default 8]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/places-search.ts
//      PLACES_BENCH_COUNT=100000 for a quicker look.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'cairn-places-bench-'));
const csv = join(dir, 'places.csv');

interface Ready {
  port: number;
  key: string;
  generateMs: number;
  exportMs: number;
  count: number;
  engine: string;
  restaurant: string;
  cities: { name: string; latitude: number; longitude: number }[];
}

function child(script: string, args: string[], env: Record<string, string>) {
  return spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
}

function firstJsonLine<T>(proc: ReturnType<typeof child>): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as T);
    });
    proc.on('exit', (code) => reject(new Error(`${proc.spawnargs.join(' ')} exited with ${code}`)));
  });
}

const server = child('./places-server.ts', [], { PLACES_BENCH_CSV: csv });
const ready = await firstJsonLine<Ready>(server);
const headers = { authorization: `Bearer ${ready.key}`, 'x-places-api-version': '2025-06-17' };

// Query centres: the 100 most populous cities, where generated places are densest, jittered a little.
let i = 0;
const city = () => ready.cities[i++ % ready.cities.length]!;
const ll = () => {
  const c = city();
  return `${(c.latitude + ((i * 7919) % 100) / 5000).toFixed(5)},${(c.longitude + ((i * 104729) % 100) / 5000).toFixed(5)}`;
};
const words = [
  'pizza',
  'cafe',
  'bank',
  'hotel',
  'pharmacy',
  'bakery',
  'bar',
  'supermarket',
  'golden',
  'market',
];
const scenarios: Record<string, () => string> = {
  '(a) ll + radius, nearest': () => `/places/search?ll=${ll()}&radius=5000&limit=10`,
  '(b) query + ll': () => `/places/search?query=${words[i % words.length]}&ll=${ll()}&limit=10`,
  '(c) category + open_now + ll': () =>
    `/places/search?fsq_category_ids=${ready.restaurant}&open_now=true&ll=${ll()}&limit=10`,
  '(d) near': () => `/places/search?near=${encodeURIComponent(city().name)}&limit=10`,
};

async function run(path: () => string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}`,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path()}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    load: loadavg()[0]!,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadAtStart = load();
const figures: Record<string, { rps: number; p50: number; p99: number; load: number }> = {};
for (const [name, path] of Object.entries(scenarios)) {
  await run(path); // warm-up: caches, JIT
  figures[name] = await run(path);
}
server.kill('SIGTERM');
await new Promise((ok) => server.once('exit', ok));

const importer = child('./places-import.ts', [csv], {});
const imported = await firstJsonLine<{ imported: number; bad: number; ms: number }>(importer);
await new Promise((ok) => importer.once('exit', ok));
rmSync(dir, { recursive: true, force: true });

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `places search benchmark — ${ready.engine}, ${ready.count.toLocaleString('en-US')} places, ${connections} connections, ${seconds} s per scenario, ${cpus().length} cores; load average at start ${loadAtStart}, at the end ${load()}`,
);
console.log(
  `generate ${ready.count.toLocaleString('en-US')}: ${s(ready.generateMs)} (${Math.round(ready.count / (ready.generateMs / 1000)).toLocaleString('en-US')}/s)`,
);
console.log(
  `import ${imported.imported.toLocaleString('en-US')} CSV rows: ${s(imported.ms)} (${imported.bad} bad)   [export took ${s(ready.exportMs)}]`,
);
console.log('scenario                          p50 ms   p99 ms     req/s   load (1 min)');
for (const [name, f] of Object.entries(figures)) {
  console.log(
    `${name.padEnd(32)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(8)} ${String(Math.round(f.rps)).padStart(9)} ${f.load.toFixed(2).padStart(14)}`,
  );
}
