// Cost of refusing text the database can't store, per request: kit's strict query-string parser against
// fast-querystring (Fastify's default, which it replaced), and the NUL / surrogate check over a parsed
// query and a JSON body (fast-querystring comes with fastify). Prints the median of 15 rounds per case,
// the ratio, the command and the load.
//   npx tsx bench/request-text.ts
import { loadavg } from 'node:os';
import { findUnstorableText, parseQueryString } from '@cairn/kit';
import fastQuerystring from 'fast-querystring';

const QUERIES = {
  'places search':
    'query=caf%C3%A9+cr%C3%A8me&ll=48.8566%2C2.3522&radius=2000&limit=10&fields=fsq_place_id%2Cname',
  'oauth token': `grant_type=authorization_code&code=ac_${'A'.repeat(43)}&client_id=${'B'.repeat(48)}&client_secret=cs_${'C'.repeat(43)}&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback`,
  'long text (2 KB)': `q=${'%E2%82%AC'.repeat(700)}`,
};
const BODY = {
  name: 'Café de Flore',
  address: '172 Boulevard Saint-Germain',
  categories: ['Dining and Drinking > Café', 'Dining and Drinking > Restaurant'],
  hours: {
    display: 'Mon-Sun 7:30-1:30',
    regular: Array.from({ length: 7 }, (_, day) => ({ day, open: '0730', close: '0130' })),
  },
};

const ROUNDS = 15;
const PER_ROUND = 20_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Nanoseconds per call, median of the rounds. */
function measure(fn: () => unknown): number {
  for (let i = 0; i < PER_ROUND; i++) fn(); // warm up
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - start) / PER_ROUND);
  }
  return median(rounds);
}

console.log(`command: npx tsx bench/request-text.ts`);
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${ROUNDS} rounds of ${PER_ROUND} calls`,
);
for (const [name, text] of Object.entries(QUERIES)) {
  const parsed = parseQueryString(text);
  const parse = measure(() => parseQueryString(text));
  const check = measure(() => findUnstorableText(parsed));
  const theirs = measure(() => fastQuerystring.parse(text));
  console.log(
    `${name.padEnd(18)} strict parse ${parse.toFixed(0).padStart(6)} ns + check ${check.toFixed(0).padStart(5)} ns   fast-querystring ${theirs.toFixed(0).padStart(6)} ns   ratio ${((parse + check) / theirs).toFixed(2)}`,
  );
}
const body = JSON.parse(JSON.stringify(BODY));
console.log(
  `${'JSON body check'.padEnd(18)} ${measure(() => findUnstorableText(body))
    .toFixed(0)
    .padStart(6)} ns (${JSON.stringify(BODY).length} bytes)`,
);
