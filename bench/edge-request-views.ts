// Benchmark: the per-request cost of the two request views issue 15 added to the edge data plane —
// URL normalisation (type cloudflare) of typical and hostile request targets, and an IP geolocation
// lookup (country MMDB + ASN table) of public addresses. Prints the median over rounds of the
// nanoseconds per call, the database load time, the command and the machine's load.
//
// Run: npx tsx bench/edge-request-views.ts [rounds, default 5]
import { cpus, loadavg } from 'node:os';
import { GeoDatabase } from '@cairn/edge';
import { normalizeRequestTarget } from '@cairn/rules';

const rounds = Number(process.argv[2] ?? 5);
const TARGETS = [
  '/',
  '/products?page=2&sort=price',
  '/catalog/shoes/hiking/item-12345.html?ref=home',
  '/%73ecret.txt',
  '//a/./b/../c//%2e%2egit/config?x=/../',
  `/${'a/'.repeat(100)}${'../'.repeat(50)}x`,
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function nsPerCall(n: number, fn: (i: number) => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / n;
}

const loadStart = performance.now();
const geo = GeoDatabase.load();
const loadMs = performance.now() - loadStart;
const addresses = Array.from(
  { length: 4096 },
  (_, i) => `${(i % 223) + 1}.${(i * 37) % 256}.${(i * 11) % 256}.7`,
);

const norm: number[] = [];
const lookups: number[] = [];
for (let r = 0; r < rounds; r++) {
  norm.push(
    nsPerCall(200_000, (i) => normalizeRequestTarget(TARGETS[i % TARGETS.length] as string, 'cloudflare')),
  );
  lookups.push(nsPerCall(200_000, (i) => geo.lookup(addresses[i % addresses.length] as string)));
}
console.log(`command: npx tsx bench/edge-request-views.ts ${rounds}`);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`IP database load: ${loadMs.toFixed(0)} ms (data of ${geo.info.date})`);
console.log(
  `URL normalisation (cloudflare), mix of ${TARGETS.length} targets: median ${median(norm).toFixed(0)} ns/call`,
);
console.log(`IP geolocation lookup (country + ASN): median ${median(lookups).toFixed(0)} ns/call`);
