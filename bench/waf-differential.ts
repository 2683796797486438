// The differential attack harness (issue 40): replays the recorded attack corpus (bench/data/waf-attacks.jsonl.gz,
// captured by bench/waf-capture.ts from sqlmap and wapiti) and the benign corpus (bench/data/benign-requests.json)
// to nginx + ModSecurity v3 + the Debian CRS, to Cairn's seclang engine with the same CRS and to Cairn's edge
// proxy with the new WAF deployed through the Rulesets API, at PL1–PL4 with anomaly threshold 5, and prints
// both directions of difference per level and per rule, the false positives, and every request ModSecurity
// blocks and Cairn passes grouped by root cause, against the argued exceptions
// (bench/data/waf-differential-exceptions.yaml).
//
// Run: npm run waf:differential [-- --capture [capture flags]] [--pl 1,2] [--no-edge] [--limit N]
//        [--sample N] [--markdown file.md] [--write-sample] [--corpus file.jsonl.gz] [--sqlmap-check]
// (--sample N: about N requests, an even share of each tool run; results in /tmp/cairn-waf-differential)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RecordedRequest, readJsonl } from '../packages/seclang/test/waf-differential/corpus.ts';
import { loadExceptions } from '../packages/seclang/test/waf-differential/exceptions.ts';
import { locationOf } from '../packages/seclang/test/waf-differential/location.ts';
import { startChild } from './child.ts';
import { capture, defaultCorpus, sampleOf } from './waf-capture.ts';
import { writeMarkdown } from './waf-differential-markdown.ts';
import {
  groups,
  printDirections,
  printFalsePositives,
  printGroups,
  printPerRule,
  type Row,
} from './waf-differential-report.ts';
import { writeSample } from './waf-differential-sample.ts';
import { modsecAvailability } from './waf-modsec.ts';
import { sqlmapCheck } from './waf-sqlmap-check.ts';
import { edgeVerdicts, engineVerdicts, modsecVerdicts, type Pl } from './waf-verdicts.ts';

const EDGE_TARGET = fileURLToPath(new URL('./waf-edge-target.ts', import.meta.url));
const BENIGN = fileURLToPath(new URL('./data/benign-requests.json', import.meta.url));
const RESULTS = '/tmp/cairn-waf-differential';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function replay(list: RecordedRequest[], levels: Pl[], withEdge: boolean): Promise<Row[]> {
  const rows: Row[] = list.map((request) => ({
    request,
    location: locationOf(request),
    modsec: [],
    engine: [],
  }));
  const edge = withEdge
    ? await startChild<{ port: number; hosts: Record<string, string> }>(EDGE_TARGET, [])
    : undefined;
  try {
    for (const pl of levels) {
      let t = performance.now();
      const m = await modsecVerdicts(list, pl);
      const modsecS = (performance.now() - t) / 1000;
      t = performance.now();
      const e = engineVerdicts(list, pl);
      const engineS = (performance.now() - t) / 1000;
      t = performance.now();
      const x = edge ? await edgeVerdicts(list, edge.info.port, edge.info.hosts[pl] as string) : undefined;
      const edgeS = (performance.now() - t) / 1000;
      rows.forEach((r, i) => {
        r.modsec[pl - 1] = m[i] as (typeof m)[number];
        r.engine[pl - 1] = e[i] as (typeof e)[number];
        if (x) (r.edge ??= [])[pl - 1] = x[i] as (typeof x)[number];
      });
      writeFileSync(`${RESULTS}/partial.json`, JSON.stringify({ levels, rows }));
      console.error(
        `  PL${pl}: ${list.length} requests, ModSecurity ${modsecS.toFixed(0)} s, engine ${engineS.toFixed(0)} s` +
          (x ? `, edge ${edgeS.toFixed(0)} s` : ''),
      );
    }
  } finally {
    edge?.kill();
  }
  return rows;
}

async function main(): Promise<void> {
  if (process.argv.includes('--sqlmap-check')) return sqlmapCheck();
  if (process.argv.includes('--capture')) await capture();
  const missing = modsecAvailability();
  if (missing) throw new Error(`ModSecurity: ${missing}`);
  const corpusFile = flag('--corpus') ?? defaultCorpus();
  let attacks = readJsonl(corpusFile);
  if (flag('--limit')) attacks = attacks.slice(0, Number(flag('--limit')));
  if (flag('--sample')) attacks = sampleOf(attacks, Number(flag('--sample')));
  const benign = JSON.parse(readFileSync(BENIGN, 'utf8')) as RecordedRequest[];
  const levels = (flag('--pl')?.split(',').map(Number) ?? [1, 2, 3, 4]) as Pl[];
  const withEdge = !process.argv.includes('--no-edge');
  console.error(
    `replaying ${attacks.length} attack and ${benign.length} benign requests at PL ${levels.join(',')}`,
  );
  mkdirSync(RESULTS, { recursive: true });
  const rows = await replay([...attacks, ...benign], levels, withEdge);
  const attackRows = rows.slice(0, attacks.length);
  const benignRows = rows.slice(attacks.length);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}/results.json`, JSON.stringify({ levels, attackRows, benignRows }));
  const exceptions = loadExceptions();
  console.log(
    `command: npm run waf:differential -- ${process.argv.slice(2).join(' ')}; corpus ${corpusFile}`,
  );
  printDirections(attackRows, levels);
  printPerRule(attackRows, levels);
  printFalsePositives(benignRows, levels);
  const g = groups(attackRows, levels, exceptions);
  printGroups(g);
  const markdown = flag('--markdown');
  if (markdown) writeMarkdown(markdown, attackRows, benignRows, levels, g);
  if (process.argv.includes('--write-sample')) writeSample(attackRows, benignRows);
  const open = g.filter((x) => x.verdict === 'open').reduce((n, x) => n + x.rows.length, 0);
  console.log(
    `\nunexplained differences (ModSecurity blocks, Cairn passes, no entry in the exceptions file): ${open}`,
  );
}

await main();
