// @detectSQLi alone: nanoseconds per call of the libinjection-model detector (issue 40) and of the
// legacy detector it replaced, measured in the same run, over libinjection's test vectors and over
// benign text of the kind a WAF mostly sees (words, ids, dates, JSON fragments, sentences with
// apostrophes). Prints medians of rounds and the ratio new / legacy; also the worst case per
// character on 256 KiB hostile inputs.
//
// Run: npx tsx bench/detect-sqli.ts [--rounds N]

import { readFileSync } from 'node:fs';
import { legacyDetectSQLi } from '../packages/seclang/src/detectors/legacy-sqli/legacy-sqli.ts';
import { detectSQLi } from '../packages/seclang/src/detectors/sqli.ts';
import { compareDetectors } from './detector-compare.ts';
import { report } from './report.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 15;

function vectors(file: string): string[] {
  const url = new URL(`../packages/seclang/testdata/libinjection/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as Array<{ input: string }>).map((v) => v.input);
}

const BENIGN_WORDS = [
  'hello world',
  'Ada Lovelace',
  'ada@example.com',
  '+44 20 7946 0958',
  '12 Analytical Engine Street',
  '2024-05-01T10:00:00Z',
  '8f14e45fceea167a5a36dedd4bea2543',
  "O'Reilly",
  "the kids' menu, and a drink",
  'select a colour from the list',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'en-GB,en;q=0.9,fr;q=0.8',
  '{"id":42,"name":"Widget","tags":["a","b"],"price":9.99}',
  'Union Station, or the one by the river?',
  '/catalog?page=2&sort=price-desc',
  'true',
  '3',
  'GA1.2.1234567890.1700000000',
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.',
];

const SETS: Array<[string, string[]]> = [
  ['libinjection attack samples', vectors('sqli-attack-samples.json')],
  ['libinjection false positives', vectors('sqli-false-positives.json')],
  ['benign text', Array.from({ length: 1000 }, () => BENIGN_WORDS).flat()],
];

console.log(`@detectSQLi — median CPU ns per call, ${ROUNDS} rounds`);
console.log(
  `${'set'.padEnd(32)}${'inputs'.padStart(8)}${'new'.padStart(10)}${'legacy'.padStart(10)}${'ratio'.padStart(8)}`,
);
for (const [name, inputs] of SETS) {
  const { now, legacy, ratio } = compareDetectors(
    (s) => detectSQLi(s).match,
    (s) => legacyDetectSQLi(s).match,
    inputs,
    ROUNDS,
  );
  console.log(
    `${name.padEnd(32)}${String(inputs.length).padStart(8)}${now.toFixed(0).padStart(10)}${legacy.toFixed(0).padStart(10)}${ratio.toFixed(2).padStart(8)}`,
  );
  report({
    bench: 'detect-sqli',
    name,
    unit: 'ns',
    ours: now,
    peer: { name: 'legacy detector', value: legacy },
    lowerIsBetter: true,
  });
}

console.log('\nhostile 256 KiB inputs — CPU ns per input character (new detector)');
for (const unit of ["'", '/*', '--', '(', "\\'", 'a', '1+', '$a$', '\u0000']) {
  const input = unit.repeat(Math.ceil(262_144 / unit.length));
  const started = process.cpuUsage();
  detectSQLi(input);
  const used = process.cpuUsage(started);
  const ns = ((used.user + used.system) * 1000) / input.length;
  console.log(`  ${JSON.stringify(unit).padEnd(10)}${ns.toFixed(1).padStart(8)}`);
}
