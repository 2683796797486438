// Rebuilds packages/seclang/testdata/libinjection/xss-{samples,other-samples,html5-tokens}.json:
// libinjection's test vectors, labelled by the libinjection_xss() and HTML tokenizer that Debian's
// libmodsecurity3 exports (the library ModSecurity's @detectXSS calls). Needs gcc and
// libmodsecurity3; nothing of libinjection is compiled, only a small driver of ours that links
// libmodsecurity.so.3 (packages/seclang/test/libmodsecurity-xss.ts).
//
// Run: npx tsx scripts/libinjection-xss-labels.ts <libinjection checkout> [--compare <dir with
//      libinjection_xss.c, libinjection_html5.c and headers>]  (--compare builds that source in a
//      temporary directory and reports every vector it decides differently)

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDriver, runDriver } from '../packages/seclang/test/libmodsecurity-xss.ts';

const TOKEN_TYPES = [
  'DATA_TEXT',
  'TAG_NAME_OPEN',
  'TAG_NAME_CLOSE',
  'TAG_NAME_SELFCLOSE',
  'TAG_DATA',
  'TAG_CLOSE',
  'ATTR_NAME',
  'ATTR_VALUE',
  'TAG_COMMENT',
  'DOCTYPE',
];

interface Vector {
  file: string;
  line: number;
  bytes: Buffer;
}

/** reader.c's reading of a sample file: lines right-trimmed, '#' and empty lines skipped, URL-decoded. */
function readSamples(dir: string, file: string): Vector[] {
  const text = readFileSync(join(dir, 'data', file));
  const vectors: Vector[] = [];
  let start = 0;
  let line = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text[i] !== 10) continue;
    line++;
    let end = i;
    while (end > start && [32, 9, 13].includes(text[end - 1]!)) end--;
    const raw = text.subarray(start, end);
    start = i + 1;
    if (raw.length > 0 && raw[0] !== 35) vectors.push({ file, line, bytes: urlDecode(raw) });
  }
  return vectors;
}

function urlDecode(raw: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    const pair = raw.subarray(i + 1, i + 3).toString('latin1');
    if (c === 43) out.push(32);
    else if (c === 37 && i + 2 < raw.length && /^[0-9a-fA-F]{2}$/.test(pair)) {
      out.push(Number.parseInt(pair, 16));
      i += 2;
    } else out.push(c);
  }
  return Buffer.from(out);
}

interface TokenTest {
  test: string;
  title: string;
  bytes: Buffer;
}

function readTokenTests(dir: string): TokenTest[] {
  const files = readdirSync(join(dir, 'tests')).filter((f) => f.startsWith('test-html5-'));
  return files.sort().map((file) => {
    const text = readFileSync(join(dir, 'tests', file), 'latin1');
    const parts = /^--TEST--\n([\s\S]*?)--INPUT--\n([\s\S]*?)--EXPECTED--\n/.exec(text);
    if (!parts) throw new Error(`${file}: no --TEST--/--INPUT--/--EXPECTED-- sections`);
    const trim = (s: string) => s.replace(/[ \n\t\r]+$/, '');
    return {
      test: file.replace('.txt', ''),
      title: trim(parts[1]!),
      bytes: Buffer.from(trim(parts[2]!), 'latin1'),
    };
  });
}

function run(binary: string, inputs: Buffer[], mode?: 'tok'): string[] {
  return runDriver(
    binary,
    inputs.map((b) => b.toString('latin1')),
    mode,
  );
}

function writeVectors(path: string, header: Record<string, string>, rows: unknown[]): void {
  const head = Object.entries(header).map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  const body = rows.map((r) => `  ${JSON.stringify(r)}`).join(',\n');
  writeFileSync(path, `{\n${head.join('\n')}\n "vectors": [\n${body}\n ]\n}\n`);
}

const [checkout] = process.argv.slice(2);
if (!checkout) throw new Error('usage: npx tsx scripts/libinjection-xss-labels.ts <libinjection checkout>');
const compareAt = process.argv.indexOf('--compare');
const debian = buildDriver();

const dataFiles = readdirSync(join(checkout, 'data')).sort();
const samples = dataFiles.filter((f) => /^xss-.*\.txt$/.test(f)).flatMap((f) => readSamples(checkout, f));
const others = dataFiles
  .filter((f) => /^sqli-.*\.txt$/.test(f) || f === 'false_positives.txt')
  .flatMap((f) => readSamples(checkout, f));
const tokenTests = readTokenTests(checkout);
const all = [...samples, ...others, ...tokenTests];
const labels = run(
  debian,
  all.map((v) => v.bytes),
).map((l) => l === '1');

if (compareAt > 0) {
  const src = process.argv[compareAt + 1]!;
  const source = buildDriver({ dir: src, files: ['libinjection_xss.c', 'libinjection_html5.c'] });
  const other = run(
    source,
    all.map((v) => v.bytes),
  ).map((l) => l === '1');
  const differ = all.filter((_, k) => other[k] !== labels[k]);
  console.log(
    `${src} decides differently from Debian's library on ${differ.length} of ${all.length} vectors`,
  );
}

const about = {
  source:
    "libinjection (https://github.com/libinjection/libinjection, BSD-3-Clause) v3.9.2's test files, as named per vector; lines read as its reader.c does (right-trimmed, # comments and empty lines skipped, URL-decoded). data/xss-shazzer.txt is the version of commit 525b0b6 and data/sqli-sqlmap.txt, data/sqli-sqlmap-20130419.txt are left out: their v3.9.2 copies were missing from the mirror used",
  label:
    'xss: libinjection_xss() of Debian bookworm libmodsecurity3 3.0.9-1+deb12u2, which bundles libinjection 3.9.2-46-gbfba51f (it decides as that commit built from source on all these vectors and on 300,000 random markup strings; the tag v3.9.2 differs from it on attribute names "on" + 0 to 2 characters, never on these vectors); made by scripts/libinjection-xss-labels.ts',
  encoding: 'input is bytes as a latin1 string (one char per byte), as the engine sees request data',
};
const out = new URL('../packages/seclang/testdata/libinjection/', import.meta.url).pathname;
const sample = (v: Vector, k: number) => ({
  file: v.file,
  line: v.line,
  input: v.bytes.toString('latin1'),
  xss: labels[k],
});
writeVectors(join(out, 'xss-samples.json'), about, samples.map(sample));
writeVectors(
  join(out, 'xss-other-samples.json'),
  about,
  others.map((v, k) => sample(v, samples.length + k)),
);
const tokens = run(
  debian,
  tokenTests.map((t) => t.bytes),
  'tok',
);
writeVectors(
  join(out, 'xss-html5-tokens.json'),
  {
    ...about,
    tokens:
      'tokens: libinjection html5 tokenizer in its data state, [type, text], as libinjection bfba51f yields them (the test files hold the same, compared after trimming trailing white space)',
  },
  tokenTests.map((t, k) => ({
    test: t.test,
    title: t.title,
    input: t.bytes.toString('latin1'),
    tokens:
      tokens[k]!.trim() === ''
        ? []
        : tokens[k]!.trim()
            .split(' ')
            .map((token) => {
              const [type, hex] = token.split(',');
              return [TOKEN_TYPES[Number(type)], Buffer.from(hex!, 'hex').toString('latin1')];
            }),
    xss: labels[samples.length + others.length + k],
  })),
);
console.log(
  `${samples.length} XSS samples, ${others.length} other samples, ${tokenTests.length} tokenizer tests`,
);
