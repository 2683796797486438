// What inspecting more of a request body costs (issue 40, point 4): CPU time of one CRS evaluation
// (PL1 and PL4, Debian CRS 3.3, @cairn/seclang as the edge loads it) for benign URL-encoded and JSON
// bodies of 16 KiB to 4 MiB, inspected whole. Prints the median per size and its ratio to 128 KiB,
// the edge's default inspection limit (EDGE_WAF_BODY_LIMIT). Each evaluation gets values never seen
// before (a counter in every field), so the cross-request value cache does not hide the cost.
//
// Run: npx tsx bench/waf-body-size.ts [--rounds N]

import { loadCrsSync, type Waf, type WafRequest } from '../packages/seclang/src/index.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const KIB = 1024;
const SIZES = [16 * KIB, 128 * KIB, 512 * KIB, 1024 * KIB, 4096 * KIB];

const WORDS =
  'please deliver the parcel to the back door after six in the evening and call me when you arrive thanks'.split(
    ' ',
  );

/** Benign text of `n` words, different for each `seed`. */
function text(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(i * 7 + seed) % WORDS.length] as string);
  return `${out.join(' ')} ${seed}`;
}

function form(size: number, seed: number): string {
  const fields: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const field = `field_${i}=${encodeURIComponent(text(12, seed + i))}`;
    fields.push(field);
    length += field.length + 1;
  }
  return fields.join('&').slice(0, size);
}

function json(size: number, seed: number): string {
  const items: { id: number; note: string; qty: number; gift: boolean }[] = [];
  let length = 0;
  for (let i = 0; length < size - 200; i++) {
    const item = { id: seed + i, note: text(12, seed + i), qty: (i % 5) + 1, gift: i % 2 === 0 };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return JSON.stringify({ order: seed, items });
}

function request(type: string, body: string): WafRequest {
  return {
    method: 'POST',
    uri: '/api/orders',
    httpVersion: '1.1',
    headers: [
      ['Host', 'shop.example.com'],
      ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0'],
      ['Accept', '*/*'],
      ['Content-Type', type],
      ['Content-Length', String(body.length)],
    ],
    remoteAddr: '203.0.113.7',
    body: Buffer.from(body, 'latin1'),
  };
}

function cpuMs(waf: Waf, req: WafRequest): number {
  const started = process.cpuUsage();
  const result = waf.evaluate(req);
  const used = process.cpuUsage(started);
  if (result.timedOut) throw new Error('the evaluation ran out of its budget');
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// As many arguments as a 4 MiB form holds, and no 1,000-argument cap: this measures inspection, not
// the limit's refusal.
const ARGUMENTS = 200_000;

for (const paranoiaLevel of [1, 4] as const) {
  const waf = loadCrsSync({
    paranoiaLevel,
    limits: {
      requestBodyLimit: 8 * 1024 * KIB,
      requestBodyNoFilesLimit: 8 * 1024 * KIB,
      argumentsLimit: ARGUMENTS,
    },
    timeBudgetMs: 600_000,
    extraRules: 'SecRuleRemoveById 200007',
  });
  let seed = 0;
  for (const [label, make, type] of [
    ['form', form, 'application/x-www-form-urlencoded'],
    ['JSON', json, 'application/json'],
  ] as const) {
    const medians = new Map<number, number>();
    // warm-up: V8 compiles the regexes and the parser's paths on the first large values
    for (let i = 0; i < 2; i++) cpuMs(waf, request(type, make(128 * KIB, (seed += 1000))));
    for (const size of SIZES) {
      const samples: number[] = [];
      for (let r = 0; r < rounds; r++) samples.push(cpuMs(waf, request(type, make(size, (seed += 1000)))));
      medians.set(size, median(samples));
    }
    const base = medians.get(128 * KIB) as number;
    const row = SIZES.map(
      (size) =>
        `${size / KIB} KiB ${(medians.get(size) as number).toFixed(1)} ms (${((medians.get(size) as number) / base).toFixed(2)}×)`,
    );
    console.log(`PL${paranoiaLevel} ${label}: ${row.join(', ')}`);
  }
}
