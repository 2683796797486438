// @detectXSS alone: CPU nanoseconds per call of the libinjection-model detector (issue 40) and of
// the legacy detector it replaced, measured in the same run, over libinjection's test vectors, over
// benign text and over benign HTML-ish text (what comment fields, rich-text editors and markdown
// send). Prints medians of rounds and the ratio new / legacy; then the time per character on 1 MiB
// hostile inputs (the new detector only: the bound that matters is linear time).
//
// Run: npx tsx bench/detect-xss.ts [--rounds N]

import { readFileSync } from 'node:fs';
import { legacyDetectXSS } from '../packages/seclang/src/detectors/legacy-xss/legacy-xss.ts';
import { detectXSS } from '../packages/seclang/src/detectors/xss.ts';
import { compareDetectors, median, onePass } from './detector-compare.ts';
import { report } from './report.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 15;

function vectors(file: string): string[] {
  const url = new URL(`../packages/seclang/testdata/libinjection/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { vectors: Array<{ input: string }> }).vectors.map(
    (v) => v.input,
  );
}

const BENIGN_TEXT = [
  'hello world',
  'Ada Lovelace',
  'ada@example.com',
  '2024-05-01T10:00:00Z',
  'O\'Reilly\'s "best" book, `code` and all',
  'page=2&sort=price-desc&q=blue+shoes',
  'a=1; b=2; theme=dark; lang=en-GB',
  '{"id":42,"name":"Widget","tags":["a","b"],"price":9.99}',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0=.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  'if x < 3 and y > 4 then z = 5',
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.',
  'https://shop.example.com/catalog?page=2&ref=home',
];

const BENIGN_HTML = [
  '<p>Hello <b>world</b>, see <a href="https://example.com/docs?x=1">the docs</a>.</p>',
  '<ul><li>one</li><li>two</li></ul>',
  '<img src="/photos/cat.jpg" alt="a cat" width="320" height="200">',
  '<a href="/users/42" class="user-link" title="Ada">Ada</a> replied &amp; said &quot;hi&quot;',
  '<div class="note"><em>Note:</em> keep &lt;tags&gt; short</div>',
  '# Title\n\nSome *markdown* with a [link](https://example.com) and `x = y < z`',
  '<blockquote>quoted <i>text</i></blockquote><br/><hr>',
  '<table><tr><td colspan="2">cell</td></tr></table>',
];

const SETS: Array<[string, string[]]> = [
  ['libinjection XSS samples', vectors('xss-samples.json')],
  ['libinjection SQLi samples + false positives', vectors('xss-other-samples.json')],
  ['benign text', Array.from({ length: 1000 }, () => BENIGN_TEXT).flat()],
  ['benign HTML-ish text', Array.from({ length: 1000 }, () => BENIGN_HTML).flat()],
];

console.log(`@detectXSS, CPU ns per call, median of ${ROUNDS} rounds (new = libinjection model)`);
console.log('set'.padEnd(46), 'inputs'.padStart(7), 'new'.padStart(9), 'legacy'.padStart(9), 'new/legacy');
for (const [name, inputs] of SETS) {
  const { now, legacy, ratio } = compareDetectors(detectXSS, legacyDetectXSS, inputs, ROUNDS);
  console.log(
    name.padEnd(46),
    String(inputs.length).padStart(7),
    now.toFixed(0).padStart(9),
    legacy.toFixed(0).padStart(9),
    `${ratio.toFixed(2)}×`.padStart(10),
  );
  report({
    bench: 'detect-xss',
    name: `${name} (ns per call)`,
    unit: 'ns',
    ours: now,
    peer: { name: 'legacy detector', value: legacy },
    lowerIsBetter: true,
  });
}

const HOSTILE = ['<a ', '<a x=', "<a href='&#x", '<!---', 'a=" ', '<%', '<', '\u0000', '\ud800'];
console.log('\n1 MiB hostile inputs, new detector: CPU ns per character (median of 5)');
for (const unit of HOSTILE) {
  const input = unit.repeat(Math.ceil(1_048_576 / unit.length));
  const times: number[] = [];
  for (let round = 0; round < 5; round++) times.push(onePass(detectXSS, [input]) / input.length);
  console.log(JSON.stringify(unit).padEnd(16), median(times).toFixed(1).padStart(7));
}
