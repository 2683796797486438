// Rules language benchmark: parse+check+compile of a 4 KB expression, and evaluation of typical
// WAF expressions against request contexts, side by side with the same logic written by hand.
// Run: npx tsx bench/rules.ts   (prints medians; not a test)

import {
  compile,
  createRequestContext,
  type ExecutionContext,
  type HttpRequestInput,
  httpRequestScheme,
  parse,
} from '../packages/rules/src/index.ts';
import { report } from './report.ts';

const scheme = httpRequestScheme();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

// ---- 1. parse + check + compile of a 4 KB expression ----

const CLAUSES = [
  'http.request.uri.path contains "/wp-admin/"',
  'lower(http.user_agent) contains "sqlmap"',
  'ip.src in {192.0.2.0/24 198.51.100.0/24 2001:db8::/32}',
  'http.request.method in {"PUT" "DELETE" "PATCH"}',
  'any(http.request.headers.names[*] == "X-Debug-Token")',
  'http.request.uri.query matches r"(?i)union\\s+select"',
  'http.request.full_uri wildcard "https://*.example.com/admin/*"',
  'cf.waf.score lt 20',
  'not ssl',
  'ip.src.country in {"KP" "IR" "SY"}',
  'starts_with(http.request.uri.path, "/api/internal/")',
  'len(http.request.headers["cookie"]) gt 4',
];
let big = '';
for (let i = 0; big.length < 4000; i++) {
  const clause = CLAUSES[i % CLAUSES.length] as string;
  const next = big === '' ? `(${clause}` : `${big}${i % 3 === 0 ? ') or (' : ' and '}${clause}`;
  if (next.length + 1 > 4096) break;
  big = next;
}
big += ')';
const compileTimes: number[] = [];
for (let i = 0; i < 300; i++) {
  const t = process.hrtime.bigint();
  compile(parse(big, scheme));
  compileTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
}
console.log(
  `parse+check+compile of a ${Buffer.byteLength(big)}-byte expression: median ${median(compileTimes.slice(50)).toFixed(3)} ms (300 runs, first 50 warm-up)`,
);

// ---- 2. evaluation ----

const REQUESTS: HttpRequestInput[] = [
  {
    method: 'GET',
    url: '/blog/2024/05/hello-world?utm_source=news&ref=home',
    headers: [
      ['Host', 'www.example.com'],
      ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36'],
      ['Accept', 'text/html,application/xhtml+xml'],
      ['Accept-Language', 'en-US,en;q=0.9'],
      ['Cookie', 'session=abc123; theme=dark'],
    ],
    ip: '203.0.113.45',
    ssl: true,
    geo: { country: 'US', asnum: 7922 },
    scores: { waf: 92, sqli: 95, xss: 97, rce: 99, threat: 2 },
  },
  {
    method: 'POST',
    url: '/wp-login.php',
    headers: [
      ['Host', 'www.example.com'],
      ['User-Agent', 'python-requests/2.31'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['X-Forwarded-For', '10.1.2.3'],
    ],
    ip: '198.51.100.23',
    body: 'log=admin&pwd=letmein',
    ssl: true,
    geo: { country: 'RU', asnum: 12389 },
    scores: { waf: 35, sqli: 80, xss: 90, rce: 90, threat: 40 },
  },
  {
    method: 'GET',
    url: '/api/v1/users?id=1%20UNION%20SELECT%20password%20FROM%20users',
    headers: [
      ['Host', 'api.example.com'],
      ['User-Agent', 'sqlmap/1.7'],
      ['Accept', '*/*'],
      ['X-Debug-Token', '1'],
    ],
    ip: '2001:db8::77',
    ssl: false,
    geo: { country: 'CN', asnum: 4134 },
    scores: { waf: 8, sqli: 3, xss: 80, rce: 70, threat: 90 },
  },
  {
    method: 'PUT',
    url: '/api/internal/config',
    headers: [
      ['Host', 'admin.example.com'],
      ['User-Agent', 'curl/8.5.0'],
      ['Authorization', 'Bearer x'],
    ],
    ip: '192.0.2.10',
    ssl: true,
    geo: { country: 'DE', asnum: 3320 },
    scores: { waf: 60, sqli: 70, xss: 75, rce: 80, threat: 5 },
  },
];

interface Plain {
  method: string;
  path: string;
  query: string;
  host: string;
  ua: string | undefined;
  headerNames: string[];
  ip: number | undefined;
  ipV6: bigint | undefined;
  country: string | undefined;
  ssl: boolean;
  waf: number | undefined;
  sqli: number | undefined;
  threat: number | undefined;
  bot: boolean;
}

function plainOf(r: HttpRequestInput): Plain {
  const ctx = createRequestContext(scheme, r);
  const ip = ctx.get('ip.src') as { version: number; v4: number; v6: bigint } | undefined;
  return {
    method: ctx.get('http.request.method') as string,
    path: ctx.get('http.request.uri.path') as string,
    query: ctx.get('http.request.uri.query') as string,
    host: ctx.get('http.host') as string,
    ua: ctx.get('http.user_agent') as string | undefined,
    headerNames: ctx.get('http.request.headers.names') as string[],
    ip: ip?.version === 4 ? ip.v4 : undefined,
    ipV6: ip?.version === 6 ? ip.v6 : undefined,
    country: ctx.get('ip.src.country') as string | undefined,
    ssl: ctx.get('ssl') as boolean,
    waf: ctx.get('cf.waf.score') as number | undefined,
    sqli: ctx.get('cf.waf.score.sqli') as number | undefined,
    threat: ctx.get('cf.threat_score') as number | undefined,
    bot: false,
  };
}

/** A context with every field the expressions read already computed (the steady state). */
function warmContext(r: HttpRequestInput): ExecutionContext {
  const ctx = createRequestContext(scheme, r);
  for (const f of scheme.fields) ctx.get(f.name);
  return ctx;
}

const inNet4 = (ip: number | undefined, base: number, bits: number) =>
  ip !== undefined && ip >>> (32 - bits) === base >>> (32 - bits);

interface Case {
  name: string;
  expression: string;
  byHand: (r: Plain) => boolean;
}

const CASES: Case[] = [
  {
    name: 'login protection (6 clauses)',
    expression:
      '(http.request.uri.path eq "/wp-login.php" or http.request.uri.path eq "/xmlrpc.php") and http.request.method eq "POST" ' +
      'and not ip.src in {192.0.2.0/24 203.0.113.0/24} and cf.threat_score gt 10 and not cf.client.bot',
    byHand: (r) =>
      (r.path === '/wp-login.php' || r.path === '/xmlrpc.php') &&
      r.method === 'POST' &&
      !(inNet4(r.ip, 0xc0000200, 24) || inNet4(r.ip, 0xcb007100, 24)) &&
      r.threat !== undefined &&
      r.threat > 10 &&
      !r.bot,
  },
  {
    name: 'geo + score block (8 clauses)',
    expression:
      'ip.src.country in {"CN" "RU" "KP" "IR"} and (cf.waf.score lt 20 or cf.waf.score.sqli lt 20) and ' +
      'not http.host eq "status.example.com" and http.request.method in {"GET" "POST"} and ssl ' +
      'and not starts_with(http.request.uri.path, "/static/")',
    byHand: (r) =>
      (r.country === 'CN' || r.country === 'RU' || r.country === 'KP' || r.country === 'IR') &&
      ((r.waf !== undefined && r.waf < 20) || (r.sqli !== undefined && r.sqli < 20)) &&
      r.host !== 'status.example.com' &&
      (r.method === 'GET' || r.method === 'POST') &&
      r.ssl &&
      !r.path.startsWith('/static/'),
  },
  {
    name: 'scanner and probe rule (14 clauses)',
    expression:
      'lower(http.user_agent) contains "sqlmap" or lower(http.user_agent) contains "nikto" or ' +
      'http.user_agent eq "" or any(http.request.headers.names[*] eq "X-Debug-Token") or ' +
      '(starts_with(http.request.uri.path, "/api/internal/") and not ip.src in {192.0.2.0/24 10.0.0.0/8}) or ' +
      'http.request.uri.path contains "/.git/" or http.request.uri.path contains "/.env" or ' +
      'ends_with(http.request.uri.path, ".bak") or http.request.uri.query contains "UNION%20SELECT" or ' +
      '(http.request.method eq "PUT" and not http.host eq "admin.example.com") or ' +
      'http.request.uri.path wildcard "/cgi-bin/*.pl" or cf.waf.score.sqli lt 5',
    byHand: (r) => {
      const ua = r.ua === undefined ? undefined : r.ua.toLowerCase();
      return (
        ua?.includes('sqlmap') === true ||
        ua?.includes('nikto') === true ||
        r.ua === '' ||
        r.headerNames.some((n) => n === 'X-Debug-Token') ||
        (r.path.startsWith('/api/internal/') &&
          !(inNet4(r.ip, 0xc0000200, 24) || inNet4(r.ip, 0x0a000000, 8))) ||
        r.path.includes('/.git/') ||
        r.path.includes('/.env') ||
        r.path.endsWith('.bak') ||
        r.query.includes('UNION%20SELECT') ||
        (r.method === 'PUT' && r.host !== 'admin.example.com') ||
        (r.path.toLowerCase().startsWith('/cgi-bin/') && r.path.toLowerCase().endsWith('.pl')) ||
        (r.sqli !== undefined && r.sqli < 5)
      );
    },
  },
];

const ITER = 100_000;
const ROUNDS = 31;

function time(fn: () => number): number {
  const t = process.hrtime.bigint();
  const hits = fn();
  const ns = Number(process.hrtime.bigint() - t) / ITER;
  if (hits < 0) console.log('unreachable');
  return ns;
}

console.log(
  `\nevaluation, ns per evaluation (median of ${ROUNDS} rounds × ${ITER} evaluations over ${REQUESTS.length} requests):`,
);
// The machine may be shared: compiled and hand-written rounds alternate, and besides the ratio of
// the medians we print the median of the per-round ratios (each pair ran back to back, so it
// saw the same load).
console.log('expression                              compiled   by hand   ratio   per-round   same results');
for (const c of CASES) {
  const filter = compile(parse(c.expression, scheme));
  const contexts = REQUESTS.map(warmContext);
  const plains = REQUESTS.map(plainOf);
  const same = contexts.every((ctx, i) => filter.execute(ctx) === c.byHand(plains[i] as Plain));
  const compiled: number[] = [];
  const hand: number[] = [];
  const n = REQUESTS.length;
  // Warm both functions up outside the timed loops, so the loops are optimised with settled
  // type feedback for what they call.
  for (let i = 0; i < 20_000; i++) {
    filter.execute(contexts[i % n] as ExecutionContext);
    c.byHand(plains[i % n] as Plain);
  }
  for (let round = 0; round < ROUNDS; round++) {
    compiled.push(
      time(() => {
        let hits = 0;
        for (let i = 0; i < ITER; i++) if (filter.execute(contexts[i % n] as ExecutionContext)) hits++;
        return hits;
      }),
    );
    hand.push(
      time(() => {
        let hits = 0;
        for (let i = 0; i < ITER; i++) if (c.byHand(plains[i % n] as Plain)) hits++;
        return hits;
      }),
    );
  }
  const a = median(compiled.slice(3));
  const b = median(hand.slice(3));
  const pairs = median(compiled.slice(3).map((x, i) => x / (hand[i + 3] as number)));
  console.log(
    `${c.name.padEnd(38)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(9)} ${(a / b).toFixed(2).padStart(6)}× ${pairs.toFixed(2).padStart(9)}×   ${same}`,
  );
  report({
    bench: 'rules',
    name: c.name,
    unit: 'ns per evaluation',
    ours: a,
    peer: { name: 'the same logic by hand', value: b },
    lowerIsBetter: true,
  });
}

// ---- 3. end to end: a fresh lazy context per request, then evaluation ----

{
  const c = CASES[2] as Case;
  const filter = compile(parse(c.expression, scheme));
  const runs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    runs.push(
      time(() => {
        let hits = 0;
        for (let i = 0; i < ITER; i++) {
          if (filter.execute(createRequestContext(scheme, REQUESTS[i % REQUESTS.length] as HttpRequestInput)))
            hits++;
        }
        return hits;
      }),
    );
  }
  console.log(
    `\nfresh lazy context from a request description + "${c.name}": median ${median(runs.slice(3)).toFixed(0)} ns`,
  );
}
