// npm run bench: runs every benchmark at a quick size (the default) or the full one, each in its own
// process, and writes BENCHMARKS.md — the machine, its load before and after each benchmark, the exact
// commands, every figure beside the peer it is measured against in the same run — and SVG plots of the
// run (ratios against the peers, latency distributions) into bench/plots/.
//   npm run bench                 quick (minutes)
//   npm run bench -- --full       the sizes each benchmark's README figures use (an hour or more)
//   npm run bench -- --only waf,rules    a subset;  --note "…"  a line about the machine's state
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, type } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Distribution, PairedFigure, ReportLine } from './report.ts';
import { latencyChart, ratioChart } from './svg.ts';

interface Benchmark {
  name: string;
  file: string;
  what: string;
  peer: string;
  quick: { args: string[]; env?: Record<string, string> };
  full: { args: string[]; env?: Record<string, string> };
}

const BENCHMARKS: Benchmark[] = [
  {
    name: 'rules',
    file: 'rules.ts',
    what: 'the Rules language: compile a 4 KB expression; evaluate typical WAF expressions',
    peer: 'the same logic written by hand in TypeScript',
    quick: { args: [] },
    full: { args: [] },
  },
  {
    name: 'waf',
    file: 'waf.ts',
    what: 'CPU per request of the CRS 3.3 in @cairn/seclang (benign GET, form, JSON, attacks)',
    peer: "nginx + ModSecurity v3 with the same CRS (Debian's packages, when installed)",
    quick: { args: ['--rounds', '30', '--pl', '1', '--modsec-seconds', '2'] },
    full: { args: [] },
  },
  {
    name: 'users-api',
    file: 'users-api.ts',
    what: 'what resolving a service key costs: a no-op route behind the bearer check',
    peer: 'the same route without the check, on the same server',
    quick: { args: ['2', '3'] },
    full: { args: [] },
  },
  {
    name: 'edge-proxy',
    file: 'edge-proxy.ts',
    what: 'the edge data plane: a browser GET through the proxy with the WAF off, the new WAF PL1, the previous WAF',
    peer: 'a bare node:http + undici proxy, and nginx + ModSecurity v3 + the same CRS at PL1 (when installed)',
    quick: { args: ['2', '3'] },
    full: { args: [] },
  },
  {
    name: 'edge-request-views',
    file: 'edge-request-views.ts',
    what: 'URL normalisation and IP geolocation per request',
    peer: 'none (absolute ns per call)',
    quick: { args: ['2'] },
    full: { args: [] },
  },
  {
    name: 'request-text',
    file: 'request-text.ts',
    what: "refusing text the database can't store: kit's strict query parser and checks",
    peer: "fast-querystring (Fastify's default parser)",
    quick: { args: [] },
    full: { args: [] },
  },
  {
    name: 'places-search',
    file: 'places-search.ts',
    what: 'the places search API over loopback: four query shapes, closed and open loop',
    peer: 'none in this run (targets in services/places/README.md)',
    quick: { args: ['3', '8'], env: { PLACES_BENCH_COUNT: '20000' } },
    full: { args: [] },
  },
  {
    name: 'places-sybil',
    file: 'places-sybil.ts',
    what: 'Sybil resistance of the edit quorum options (pure computation, no timing)',
    peer: 'the options against each other',
    quick: { args: [] },
    full: { args: [] },
  },
  {
    name: 'waf-worst',
    file: 'waf-worst.ts',
    what: "the WAF's worst case: every ReDoS attack in every position at the largest admitted size",
    peer: 'the 50 ms target',
    // three rounds even quick: with one, the first cases of the process carry V8's warm-up
    quick: { args: ['--rounds', '3', '--top', '10'] },
    full: { args: [] },
  },
];

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const PLOTS = join(HERE, 'plots');
const argv = process.argv.slice(2);
const full = argv.includes('--full');
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1]?.split(',') : undefined;
const note = argv.includes('--note') ? argv[argv.indexOf('--note') + 1] : undefined;
const size = full ? 'full' : 'quick';
/** Seconds a benchmark may run before run-all stops it. */
const LIMIT_S = { quick: 600, full: 4 * 3600 };

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Outcome {
  bench: Benchmark;
  command: string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  code: number | null;
  output: string;
  lines: ReportLine[];
}

function runOne(bench: Benchmark): Promise<Outcome> {
  const { args, env = {} } = bench[size];
  const reportFile = join(PLOTS, `.${bench.name}.jsonl`);
  rmSync(reportFile, { force: true });
  const envText = Object.entries(env).map(([k, v]) => `${k}=${v} `);
  const command = `${envText.join('')}npx tsx bench/${bench.file}${args.length ? ` ${args.join(' ')}` : ''}`;
  const loadBefore = load();
  const started = Date.now();
  process.stderr.write(`bench: ${command}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, bench.file), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, CAIRN_BENCH_REPORT: reportFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // A stuck benchmark must not hold up the others: stopped after its budget, and the report says so.
    const budget = setTimeout(() => {
      output += `\n(stopped by run-all after ${LIMIT_S[size]} s)\n`;
      child.kill('SIGTERM');
    }, LIMIT_S[size] * 1000);
    child.on('exit', (code) => {
      clearTimeout(budget);
      const lines = existsSync(reportFile)
        ? readFileSync(reportFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as ReportLine)
        : [];
      rmSync(reportFile, { force: true });
      resolve({
        bench,
        command,
        seconds: (Date.now() - started) / 1000,
        loadBefore,
        loadAfter: load(),
        code,
        output,
        lines,
      });
    });
  });
}

function plotsOf(outcome: Outcome): string[] {
  const pairs = outcome.lines.filter((l): l is PairedFigure => l.kind === 'pair');
  const latencies = outcome.lines.filter((l): l is Distribution => l.kind === 'latency');
  const written: string[] = [];
  if (pairs.length > 0) {
    const file = join(PLOTS, `${outcome.bench.name}-ratios.svg`);
    writeFileSync(
      file,
      ratioChart(`${outcome.bench.name}: ours / ${pairs[0]?.peer.name} (${pairs[0]?.unit})`, pairs),
    );
    written.push(file);
  }
  if (latencies.length > 0) {
    const file = join(PLOTS, `${outcome.bench.name}-latency.svg`);
    writeFileSync(file, latencyChart(`${outcome.bench.name}: latency by percentile (last round)`, latencies));
    written.push(file);
  }
  return written;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

function markdown(outcomes: Outcome[], started: Date, loadStart: string): string {
  const cpu = cpus();
  const pairs = outcomes.flatMap((o) => o.lines.filter((l): l is PairedFigure => l.kind === 'pair'));
  const out: string[] = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench${full ? ' -- --full' : ''}\` (${size} size) on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC. Every figure`,
    'below was measured in this run, beside its peer from the same run. Re-run it on a quiet machine before',
    'quoting a figure; the per-benchmark commands reproduce one benchmark alone.',
    '',
    `- machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} free at the end), ${type()}, Node ${process.version}`,
    `- load average (1, 5, 15 min) at the start: ${loadStart}; at the end: ${load()}`,
    ...(note ? [`- ${note}`] : []),
    '',
    '## Figures beside their peers',
    '',
    '| benchmark | figure | ours | peer | peer figure | ours / peer |',
    '|---|---|---:|---|---:|---:|',
    ...pairs.map(
      (p) =>
        `| ${p.bench} | ${p.name} (${p.unit}) | ${fmt(p.ours)} | ${p.peer.name} | ${fmt(p.peer.value)} | ${(p.ours / p.peer.value).toFixed(2)}× ${p.lowerIsBetter ? '(lower is better)' : '(higher is better)'} |`,
    ),
    '',
  ];
  for (const o of outcomes) {
    out.push(`## ${o.bench.name}`, '', `${o.bench.what}. Peer: ${o.bench.peer}.`, '');
    out.push(
      `- command: \`${o.command}\``,
      `- ${o.seconds.toFixed(0)} s; load average before ${o.loadBefore}, after ${o.loadAfter}${o.code === 0 ? '' : `; **exited with ${o.code}**`}`,
      '',
    );
    for (const plot of plotsOf(o)) out.push(`![${relative(ROOT, plot)}](${relative(ROOT, plot)})`, '');
    out.push('```', o.output.trimEnd(), '```', '');
  }
  return `${out.join('\n')}\n`;
}

const started = new Date();
const loadStart = load();
mkdirSync(PLOTS, { recursive: true });
const outcomes: Outcome[] = [];
for (const bench of BENCHMARKS) {
  if (only && !only.includes(bench.name)) continue;
  if (!existsSync(join(HERE, bench.file))) {
    process.stderr.write(`bench: ${bench.file} is missing, skipped\n`);
    continue;
  }
  outcomes.push(await runOne(bench));
}
const target = join(ROOT, 'BENCHMARKS.md');
writeFileSync(target, markdown(outcomes, started, loadStart));
process.stderr.write(`bench: wrote ${relative(ROOT, target)} and bench/plots/\n`);
process.exitCode = outcomes.every((o) => o.code === 0) ? 0 : 1;
