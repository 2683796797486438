// Capture for the differential harness (issue 40): runs sqlmap (every technique, level 5, risk 3, each
// tamper script in turn) and wapiti (its attack modules) against bench/vulnerable-origin.ts, each run
// bounded in time, records every request the origin received, adds wapiti's payload files in each
// injectable location, and stores the corpus deduplicated and gzip-compressed.
//
// Run: npx tsx bench/waf-capture.ts [--tampers a,b | --all-tampers] [--seconds 60] [--jobs 2]
//        [--wapiti-seconds 300] [--no-wapiti] [--include recorded.jsonl] [--all-headers] [--append]
//        [--max-minutes M] [--out file.jsonl.gz]
// The corpus goes to bench/data/waf-attacks.jsonl.gz; past 5 MB compressed, whole to
// /tmp/cairn-waf-capture/waf-attacks.jsonl.gz and a sample of each tool run to the repository.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  dedupe,
  type RecordedRequest,
  readJsonl,
  writeJsonl,
} from '../packages/seclang/test/waf-differential/corpus.ts';
import { startChild } from './child.ts';
import { runSqlmap, SQLMAP_TARGETS, tamperScripts } from './waf-sqlmap.ts';
import { wapitiPayloadRequests } from './waf-wapiti-payloads.ts';

const ORIGIN = fileURLToPath(new URL('./vulnerable-origin.ts', import.meta.url));
const WORK = '/tmp/cairn-waf-capture';
const WAPITI = '/usr/bin/wapiti';
export const CORPUS = fileURLToPath(new URL('./data/waf-attacks.jsonl.gz', import.meta.url));
const FULL_CORPUS = join(WORK, 'waf-attacks.jsonl.gz');
const MAX_STORED = 5 * 1024 * 1024;
const SAMPLE_SIZE = 20_000;
/** The first pass: tamper scripts that change the shape of a payload the most. */
const FIRST_TAMPERS = ['space2dash', 'between', 'equaltolike', 'randomcase', 'space2comment', 'charencode'];
// (--all-tampers runs these first, then the rest in alphabetical order; --max-minutes stops starting runs)
const WAPITI_MODULES = 'sql,blindsql,xss,permanentxss,exec,file,crlf,ssrf,redirect,xxe';

interface Job {
  name: string;
  run(base: string): Promise<string>;
}

/** Starts a fresh origin recording into its own file, runs the job against it, returns what it recorded. */
async function captureJob(job: Job): Promise<RecordedRequest[]> {
  const record = join(WORK, `${job.name}.jsonl`);
  rmSync(record, { force: true });
  const origin = await startChild<{ port: number }>(ORIGIN, ['--record', record]);
  try {
    const outcome = await job.run(`http://127.0.0.1:${origin.info.port}`);
    const list = existsSync(record) ? readJsonl(record) : [];
    console.log(`  ${job.name.padEnd(32)} ${String(list.length).padStart(6)} requests  ${outcome}`);
    return list.map((r) => ({ ...r, source: job.name }));
  } finally {
    origin.kill();
  }
}

function sqlmapJobs(tampers: Array<string | undefined>, seconds: number, allHeaders: boolean): Job[] {
  return tampers.flatMap((tamper) =>
    Object.keys(SQLMAP_TARGETS)
      // the header and cookie target sends thousands of requests a run: without a tamper script only, unless asked
      .filter(
        (target) =>
          target !== 'headers' || allHeaders || tamper === undefined || FIRST_TAMPERS.includes(tamper),
      )
      .map((target) => ({
        name: `sqlmap:${tamper ?? 'none'}:${target}`,
        async run(base: string) {
          const r = await runSqlmap({
            base,
            target,
            seconds,
            outputDir: join(WORK, 'sqlmap', `${tamper ?? 'none'}-${target}`),
            tag: `sqlmap:${tamper ?? 'none'}:${target}`,
            ...(tamper ? { tamper } : {}),
          });
          return `${r.injectable ? 'injectable' : 'not injectable'}${r.dumped ? ', dumped' : ''}${r.timedOut ? ' (time bound)' : ''}`;
        },
      })),
  );
}

function wapitiJob(seconds: number): Job {
  return {
    name: 'wapiti',
    run: (base) =>
      new Promise((resolve) => {
        const out = join(WORK, 'wapiti');
        const child = spawn(
          WAPITI,
          [
            '-u',
            `${base}/`,
            '-m',
            WAPITI_MODULES,
            '--scope',
            'folder',
            '--flush-session',
            '-f',
            'txt',
            '-o',
            join(out, 'report.txt'),
            '--store-session',
            join(out, 'session'),
            '--max-scan-time',
            String(seconds),
            '--max-attack-time',
            String(Math.ceil(seconds / 4)),
            '-l',
            '2',
            '--external-endpoint',
            'http://wapiti3.example.test/',
          ],
          { stdio: 'ignore' },
        );
        const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve(`exit ${code}`);
        });
      }),
  };
}

/** Runs the sqlmap jobs `parallel` at a time against one recording origin; returns what it recorded. */
async function runShared(jobs: Job[], parallel: number, deadline: number): Promise<RecordedRequest[]> {
  const record = join(WORK, 'sqlmap.jsonl');
  rmSync(record, { force: true });
  const origin = await startChild<{ port: number }>(ORIGIN, ['--record', record, '--no-sleep']);
  const base = `http://127.0.0.1:${origin.info.port}`;
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < jobs.length && Date.now() < deadline) {
          const job = jobs[next++] as Job;
          console.log(`  ${job.name.padEnd(40)} ${await job.run(base)}`);
        }
      }),
    );
  } finally {
    origin.kill();
  }
  return existsSync(record) ? readJsonl(record) : [];
}

/** Requests recorded earlier (a previous capture's origin file), tagged `source` where they have none. */
function included(): RecordedRequest[] {
  const file = flag('--include');
  return file ? readJsonl(file).map((r) => ({ source: 'wapiti', ...r })) : [];
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

export async function capture(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const seconds = Number(flag('--seconds') ?? 60);
  const tampers: Array<string | undefined> = process.argv.includes('--all-tampers')
    ? [undefined, ...FIRST_TAMPERS, ...tamperScripts().filter((t) => !FIRST_TAMPERS.includes(t))]
    : [undefined, ...(flag('--tampers')?.split(',') ?? FIRST_TAMPERS)];
  const jobs = sqlmapJobs(tampers, seconds, process.argv.includes('--all-headers'));
  console.log(`capture: ${jobs.length} sqlmap runs, ${flag('--jobs') ?? 2} at a time, ${seconds} s each`);
  const wapiti = process.argv.includes('--no-wapiti')
    ? []
    : await captureJob(wapitiJob(Number(flag('--wapiti-seconds') ?? 300)));
  const recorded = [
    ...wapiti,
    ...included(),
    ...(await runShared(
      jobs,
      Number(flag('--jobs') ?? 2),
      Date.now() + Number(flag('--max-minutes') ?? 600) * 60_000,
    )),
  ];
  const payloads = wapitiPayloadRequests();
  const previous = process.argv.includes('--append') && existsSync(CORPUS) ? readJsonl(CORPUS) : [];
  const corpus = dedupe([...previous, ...recorded, ...payloads]);
  const out = flag('--out') ?? CORPUS;
  writeJsonl(out, corpus);
  let stored = out;
  if (statSync(out).size > MAX_STORED && out === CORPUS) {
    // too big for the repository: the whole corpus stays in /tmp, the repository keeps a sample
    writeJsonl(FULL_CORPUS, corpus);
    writeJsonl(CORPUS, sampleOf(corpus, SAMPLE_SIZE));
    stored = `${FULL_CORPUS} (a ${SAMPLE_SIZE}-request sample in ${CORPUS})`;
  }
  console.log(
    `corpus: ${recorded.length} recorded + ${payloads.length} from wapiti's payload files → ${corpus.length} distinct ` +
      `requests, stored at ${stored}`,
  );
}

/** Every `n`-th request of each tool run, so each tamper script and location keeps its share. */
export function sampleOf(list: RecordedRequest[], size: number): RecordedRequest[] {
  const step = Math.max(1, Math.ceil(list.length / size));
  const bySource = new Map<string, RecordedRequest[]>();
  for (const r of list) bySource.set(r.source ?? '', [...(bySource.get(r.source ?? '') ?? []), r]);
  return [...bySource.values()].flatMap((group) => group.filter((_r, i) => i % step === 0));
}

/** The corpus the replay reads by default: the whole capture when it is in /tmp, else the repository's. */
export const defaultCorpus = () => (existsSync(FULL_CORPUS) ? FULL_CORPUS : CORPUS);

if (process.argv[1] === fileURLToPath(import.meta.url)) await capture();
