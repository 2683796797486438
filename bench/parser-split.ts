// readCsv (the places importer's CSV reader) and parseXml (seclang's XML body parser), each against its own
// version at a git revision — by default the last one before they were split into named steps — in the same
// process, in alternating rounds; prints medians, the ratio now / before, and the machine load.
//
//   npx tsx bench/parser-split.ts [revision] [rounds]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseXml } from '../packages/seclang/src/body-parsers/xml.ts';
import { readCsv } from '../services/places/src/import/csv.ts';
import { report } from './report.ts';

type ReadCsv = typeof readCsv;
type ParseXml = typeof parseXml;

const root = resolve(import.meta.dirname, '..');
const revision = process.argv[2] ?? 'cae750b76927'; // the last commit before the split
const rounds = Number(process.argv[3] ?? 9);
const dir = join(root, '.tmp', `parser-split-${process.pid}`);
mkdirSync(dir, { recursive: true });

/** The file as it was at the revision, next to a copy of what it imports. */
function before(path: string, imports: string[] = []): string {
  const base = path.slice(0, path.lastIndexOf('/') + 1);
  for (const name of imports) {
    writeFileSync(
      join(dir, name),
      execFileSync('git', ['show', `${revision}:${base}${name}`], { cwd: root }),
    );
  }
  const file = join(dir, path.slice(base.length));
  writeFileSync(file, execFileSync('git', ['show', `${revision}:${path}`], { cwd: root }));
  return file;
}

const old = {
  readCsv: ((await import(before('services/places/src/import/csv.ts'))) as { readCsv: ReadCsv }).readCsv,
  parseXml: (
    (await import(before('packages/seclang/src/body-parsers/xml.ts', ['types.ts']))) as { parseXml: ParseXml }
  ).parseXml,
};

// A places-import-like file: 24 columns, some quoted fields with commas, doubled quotes and line breaks.
function csvFile(rows: number): string {
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    const fields: string[] = [];
    for (let c = 0; c < 24; c++) {
      if (c % 7 === 3) fields.push(`"Rue ${r}, ""Le ${c}"" bât.\nB"`);
      else if (c % 5 === 1) fields.push('');
      else fields.push(`${(r * 31 + c) % 100_000}.${c}abcdefgh`.slice(0, 4 + (c % 9)));
    }
    lines.push(fields.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
const csvPath = join(dir, 'places.csv');
const csvText = csvFile(200_000);
writeFileSync(csvPath, csvText);

function soap(i: number): string {
  const items = Array.from(
    { length: 20 },
    (_, k) =>
      `<item id="${i}-${k}" kind='row'><name>Caf&eacute; &amp; bar ${k}</name><![CDATA[raw <b>${k}</b>]]><note/></item>`,
  ).join('');
  return `<?xml version="1.0"?><!DOCTYPE envelope><!-- request ${i} --><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><m:Order xmlns:m="urn:x">${items}</m:Order></soap:Body></soap:Envelope>`;
}
const small = Array.from({ length: 100 }, (_, i) => soap(i));
const large = `<root>${Array.from({ length: 2000 }, (_, i) => soap(i).replace(/^<\?xml[^>]*>|<!DOCTYPE[^>]*>/g, '')).join('')}</root>`;

async function timeCsv(read: ReadCsv): Promise<{ ms: number; records: number }> {
  const t0 = performance.now();
  let records = 0;
  for await (const _ of read(csvPath)) records++;
  return { ms: performance.now() - t0, records };
}

function timeXml(parse: ParseXml, docs: string[], repeat: number): { us: number; check: string } {
  const t0 = performance.now();
  let check = '';
  for (let k = 0; k < repeat; k++) {
    for (const doc of docs) {
      const result = parse(doc, 1000, 1_000_000);
      if (k === 0 && doc === docs[0]) check = JSON.stringify(result);
    }
  }
  return { us: ((performance.now() - t0) * 1000) / (repeat * docs.length), check };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const figures = {
  csv: { now: [] as number[], before: [] as number[] },
  small: { now: [] as number[], before: [] as number[] },
  large: { now: [] as number[], before: [] as number[] },
};
const load = [os.loadavg()[0]!];
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so neither always runs on a warmer or a quieter machine.
  const order = round % 2 === 0 ? (['now', 'before'] as const) : (['before', 'now'] as const);
  for (const which of order) {
    const impl = which === 'now' ? { readCsv, parseXml } : old;
    const csv = await timeCsv(impl.readCsv);
    if (csv.records !== 200_000) throw new Error(`${which}: ${csv.records} records, not 200000`);
    figures.csv[which].push(csv.ms);
    figures.small[which].push(timeXml(impl.parseXml, small, 100).us);
    figures.large[which].push(timeXml(impl.parseXml, [large], 5).us);
  }
  load.push(os.loadavg()[0]!);
}
// The two versions answer alike on these inputs.
for (const doc of [
  small[0]!,
  large,
  `${small[0]}<extra/>`,
  '<a><b></a>',
  '<a x="1"',
  '<!DOCTYPE x><a/><!DOCTYPE y>',
]) {
  const [a, b] = [
    JSON.stringify(parseXml(doc, 1000, 1_000_000)),
    JSON.stringify(old.parseXml(doc, 1000, 1_000_000)),
  ];
  if (a !== b)
    throw new Error(
      `parseXml differs from ${revision} on ${doc.slice(0, 60)}: ${a.slice(0, 200)} / ${b.slice(0, 200)}`,
    );
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `before = ${revision}; ${rounds} rounds each, alternating; load average ${load.map((l) => l.toFixed(1)).join(' → ')} on ${os.cpus().length} CPUs`,
);
const mb = (n: number) => (n / 1e6).toFixed(1);
const elements = (doc: string) => doc.match(/<[^/!?]/g)?.length ?? 0;
const rows: [string, keyof typeof figures, string][] = [
  [`readCsv, 200k records (${mb(Buffer.byteLength(csvText))} MB)`, 'csv', 'ms'],
  [`parseXml, 100 SOAP documents of ${(small[0]!.length / 1000).toFixed(1)} kB`, 'small', 'µs/doc'],
  [`parseXml, one ${mb(large.length)} MB document (${elements(large)} elements)`, 'large', 'µs/doc'],
];
for (const [name, key, unit] of rows) {
  const now = median(figures[key].now);
  const then = median(figures[key].before);
  console.log(
    `${name}: now ${now.toFixed(1)} ${unit}, before ${then.toFixed(1)} ${unit}, ratio ${(now / then).toFixed(3)}`,
  );
  report({
    bench: 'parser-split',
    name,
    unit,
    ours: now,
    peer: { name: `before the split (${revision})`, value: then },
    lowerIsBetter: true,
  });
}
