// CPU time per `evaluate` of @cairn/seclang with the Debian CRS 3.3 at PL1 and PL4, for the
// fixtures of issue 9; prints medians (µs). Targets at PL1: benign GET ≤ 350 µs, 1 KB form ≤ 600 µs,
// 2 KB JSON ≤ 2500 µs (a third of nginx + ModSecurity v3 measured on this machine: 1054, 1725,
// 7732 µs).
//
// When Debian's nginx and libnginx-mod-http-modsecurity are installed, the same fixtures also go
// through nginx + ModSecurity v3 + the same CRS on loopback (bench/waf-modsec.ts), and the table
// shows its CPU per request and the ratio. Optional: without them the bench says so and goes on.
//
// Run: npx tsx bench/waf.ts [--rounds N] [--no-modsec] [--modsec-seconds S] [--pl 1|4]

import { loadCrsSync, type Waf, type WafRequest } from '../packages/seclang/src/index.ts';
import { report } from './report.ts';
import { type ModsecFigure, ModsecServer, modsecAvailability } from './waf-modsec.ts';

const BROWSER: Array<[string, string]> = [
  ['Host', 'shop.example.com'],
  [
    'User-Agent',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  ],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ['Accept-Language', 'en-GB,en;q=0.9,fr;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Referer', 'https://shop.example.com/catalog?page=2'],
  ['Connection', 'keep-alive'],
];

const COOKIES =
  'session=8f14e45fceea167a5a36dedd4bea2543; csrftoken=Zm9vYmFyYmF6cXV4; _ga=GA1.2.1234567890.1700000000; ' +
  '_gid=GA1.2.987654321.1700000000; theme=dark; lang=en-GB; cart=3; consent=analytics%2Cads; ' +
  'ab_test=variant_b; last_seen=2024-05-01T10%3A00%3A00Z';

function form(size: number): string {
  const fields = [
    'first_name=Ada',
    'last_name=Lovelace',
    'email=ada%40example.com',
    'phone=%2B44+20+7946+0958',
    'address=12+Analytical+Engine+Street',
    'city=London',
    'postcode=SW1A+1AA',
    'country=GB',
  ];
  let body = fields.join('&');
  let i = 0;
  while (body.length < size) body += `&comment_${i++}=I+would+like+to+order+the+blue+one+in+size+M+please`;
  return body.slice(0, size);
}

function json(size: number): string {
  const items: unknown[] = [];
  let i = 0;
  const note =
    size > 8192
      ? ' Please wrap it as a present and add a card that says happy birthday from all of us.'.repeat(6)
      : '';
  while (JSON.stringify({ items }).length < size - 120) {
    items.push({
      id: i,
      sku: `SKU-${1000 + i}`,
      name: `Blue cotton shirt ${i}${note}`,
      qty: (i % 3) + 1,
      price: 19.99,
      gift: false,
    });
    i++;
  }
  return JSON.stringify({
    order: 'A-1042',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    items,
  });
}

function multipart(): string {
  const b = '----cairnbench7MA4YWxkTrZu0gW';
  const file = 'x'.repeat(8 * 1024);
  return [
    `--${b}`,
    'Content-Disposition: form-data; name="title"',
    '',
    'Holiday photo',
    `--${b}`,
    'Content-Disposition: form-data; name="description"',
    '',
    'Taken at the beach in the evening',
    `--${b}`,
    'Content-Disposition: form-data; name="upload"; filename="beach.jpg"',
    'Content-Type: image/jpeg',
    '',
    file,
    `--${b}--`,
    '',
  ].join('\r\n');
}

function post(uri: string, type: string, body: string): WafRequest {
  return {
    method: 'POST',
    uri,
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [
      ...BROWSER,
      ['Cookie', COOKIES],
      ['Content-Type', type],
      ['Content-Length', String(body.length)],
    ],
    body: Buffer.from(body),
  };
}

let freshCount = 0;

/**
 * The benign GET with a session cookie and a search term never seen before: the engine remembers, across
 * requests, which rules a short value does not match (seclang's engine/value-cache.ts), and repeating one
 * request measures that memory at its best; this one measures a new user's first request.
 */
function freshGet(): WafRequest {
  const n = ++freshCount;
  const session = `${(0x10000000 + n).toString(16)}${'fceea167a5a36dedd4bea254'}`;
  return {
    method: 'GET',
    uri: `/catalog/shirts?colour=blue&size=m&page=2&q=linen+shirt+${n}`,
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [...BROWSER, ['Cookie', COOKIES.replace('8f14e45fceea167a5a36dedd4bea2543', session)]],
  };
}

const fixtures: Record<string, WafRequest | (() => WafRequest)> = {
  'benign GET + cookies': {
    method: 'GET',
    uri: '/catalog/shirts?colour=blue&size=m&page=2',
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [...BROWSER, ['Cookie', COOKIES]],
  },
  'benign GET, new session': freshGet,
  '1 KB form POST': post('/checkout', 'application/x-www-form-urlencoded', form(1024)),
  '2 KB JSON POST': post('/api/orders', 'application/json', json(2048)),
  '64 KB JSON POST': post('/api/orders', 'application/json', json(64 * 1024)),
  'multipart upload (8 KB file)': post(
    '/upload',
    `multipart/form-data; boundary=----cairnbench7MA4YWxkTrZu0gW`,
    multipart(),
  ),
  'SQLi GET': {
    method: 'GET',
    uri: '/products?id=1%27%20UNION%20SELECT%20password%20FROM%20users--',
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [...BROWSER, ['Cookie', COOKIES]],
  },
  'XSS form POST': post(
    '/comment',
    'application/x-www-form-urlencoded',
    'name=x&text=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E',
  ),
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const requestOf = (f: WafRequest | (() => WafRequest)): WafRequest => (typeof f === 'function' ? f() : f);

/** Median over batches of the mean CPU time per call (getrusage is too coarse for one call). */
function cpuMicros(
  waf: Waf,
  fixture: WafRequest | (() => WafRequest),
  rounds: number,
): { median: number; decision: string } {
  for (let i = 0; i < 50; i++) waf.evaluate(requestOf(fixture));
  const batch = 20;
  const samples: number[] = [];
  let decision = '';
  for (let b = 0; b < Math.max(5, Math.round(rounds / batch)); b++) {
    const reqs = Array.from({ length: batch }, () => requestOf(fixture));
    const t0 = process.cpuUsage();
    for (const req of reqs) {
      const r = waf.evaluate(req);
      decision = `${r.decision} (score ${r.anomalyScore})`;
    }
    const d = process.cpuUsage(t0);
    samples.push((d.user + d.system) / batch);
  }
  return { median: median(samples), decision };
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const rounds = Number(flag('--rounds') ?? 400);
const modsecSeconds = Number(flag('--modsec-seconds') ?? 1.5);
const levels = flag('--pl') ? [Number(flag('--pl')) as 1 | 4] : ([1, 4] as const);
const targets: Record<string, number> = {
  'benign GET + cookies': 350,
  'benign GET, new session': 350,
  '1 KB form POST': 600,
  '2 KB JSON POST': 2500,
};
const modsecMissing = process.argv.includes('--no-modsec') ? 'skipped (--no-modsec)' : modsecAvailability();

for (const pl of levels) {
  const t0 = performance.now();
  const waf = loadCrsSync({ paranoiaLevel: pl });
  console.log(
    `\nPL${pl} (${waf.ruleCount} rules, loaded in ${(performance.now() - t0).toFixed(0)} ms) — median CPU µs per evaluate, ${rounds} rounds`,
  );
  // steady state: let V8 optimise the engine on every request shape before measuring any
  for (let pass = 0; pass < 3; pass++) {
    for (const [name, req] of Object.entries(fixtures)) {
      for (let i = name.startsWith('64 KB') ? 10 : 60; i > 0; i--) waf.evaluate(requestOf(req));
    }
  }
  const ours = new Map<string, { us: number; decision: string }>();
  for (const [name, req] of Object.entries(fixtures)) {
    const { median: us, decision } = cpuMicros(
      waf,
      req,
      name.startsWith('64 KB') ? Math.ceil(rounds / 5) : rounds,
    );
    ours.set(name, { us, decision });
    const target = pl === 1 ? targets[name] : undefined;
    const verdict =
      target === undefined
        ? ''
        : us <= target
          ? `  (target ≤ ${target}: ok)`
          : `  (target ≤ ${target}: MISSED)`;
    console.log(`  ${name.padEnd(30)} ${us.toFixed(0).padStart(7)} µs   ${decision}${verdict}`);
  }
  if (modsecMissing) {
    console.log(`  ModSecurity side by side: ${modsecMissing}`);
    continue;
  }
  let server: ModsecServer | undefined;
  try {
    server = await ModsecServer.start(pl);
    const theirs = new Map<string, ModsecFigure>();
    for (const [name, req] of Object.entries(fixtures))
      theirs.set(name, await server.cost(requestOf(req), modsecSeconds));
    console.log(
      `\n  nginx + ModSecurity v3 + CRS PL${pl} on loopback (CPU µs per request of the nginx process, ` +
        'minus the same proxy with ModSecurity off)',
    );
    console.log(
      `  ${'request'.padEnd(30)} ${'cairn'.padStart(7)} ${'ModSec'.padStart(8)} ${'(proxy)'.padStart(8)}  ratio   status`,
    );
    for (const [name, m] of theirs) {
      const us = ours.get(name)!.us;
      console.log(
        `  ${name.padEnd(30)} ${us.toFixed(0).padStart(7)} ${m.waf.toFixed(0).padStart(8)} ${`(${m.proxy.toFixed(0)})`.padStart(8)}` +
          `  ${(m.waf / us).toFixed(1).padStart(4)}×   ${m.status} (${m.requests} requests)`,
      );
      report({
        bench: 'waf',
        name: `PL${pl} ${name}`,
        unit: 'CPU µs per request',
        ours: us,
        peer: { name: 'nginx + ModSecurity v3, same CRS', value: m.waf },
        lowerIsBetter: true,
      });
    }
  } catch (err) {
    console.log(`  ModSecurity side by side: failed: ${(err as Error).message}`);
  } finally {
    await server?.stop();
  }
}
