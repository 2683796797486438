// sqlmap (Debian's /usr/bin/sqlmap) as the differential harness runs it: one target of the vulnerable
// origin, one tamper script, every technique, level 5, risk 3, bounded in time; and what it concluded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SQLMAP = '/usr/bin/sqlmap';
export const TAMPER_DIR = '/usr/share/sqlmap/tamper';

/** The injectable endpoints of bench/vulnerable-origin.ts, each with the parameter sqlmap attacks. */
export const SQLMAP_TARGETS: Record<string, { path: string; data?: string; param: string }> = {
  numeric: { path: '/item?id=1', param: 'id' },
  string: { path: '/user?name=alice', param: 'name' },
  form: { path: '/login', data: 'user=alice&password=x', param: 'user' },
  json: { path: '/api/items', data: '{"name":"tent","limit":5}', param: 'name' },
  // the parameters it cannot inject: sqlmap then sends every payload it has, into the headers and a cookie
  headers: { path: '/search?q=tent', param: 'user-agent,referer,pref' },
};

export function tamperScripts(): string[] {
  if (!existsSync(TAMPER_DIR)) return [];
  return readdirSync(TAMPER_DIR)
    .filter((f) => f.endsWith('.py') && f !== '__init__.py')
    .map((f) => f.slice(0, -3))
    .sort();
}

export interface SqlmapRun {
  /** The parameter was confirmed injectable. */
  injectable: boolean;
  /** Rows of the users table were dumped. */
  dumped: boolean;
  /** The run hit its time bound. */
  timedOut: boolean;
  output: string;
}

export interface SqlmapOptions {
  base: string;
  target: keyof typeof SQLMAP_TARGETS;
  tamper?: string;
  seconds: number;
  outputDir: string;
  host?: string;
  /** Sent as X-Cairn-Capture, for the recording origin to name the run. */
  tag?: string;
}

export function sqlmapArgs(o: SqlmapOptions): string[] {
  const t = SQLMAP_TARGETS[o.target] as (typeof SQLMAP_TARGETS)[string];
  return [
    '-u',
    `${o.base}${t.path}`,
    ...(t.data ? ['--data', t.data] : []),
    ...(o.target === 'headers' ? ['--cookie', 'pref=1'] : []),
    '-p',
    t.param,
    '--batch',
    '--flush-session',
    '--technique=BEUSTQ',
    '--level=5',
    '--risk=3',
    '--random-agent',
    '--time-sec=1',
    '--timeout=10',
    '--retries=0',
    '--dump',
    '-T',
    'users',
    `--output-dir=${o.outputDir}`,
    ...(o.tamper ? [`--tamper=${o.tamper}`] : []),
    ...(o.host ? [`--host=${o.host}`] : []),
    ...(o.tag ? ['-H', `X-Cairn-Capture: ${o.tag}`] : []),
  ];
}

/** Runs sqlmap, killed after `seconds`; resolves with its verdict. */
export function runSqlmap(o: SqlmapOptions): Promise<SqlmapRun> {
  return new Promise((resolve) => {
    const child = spawn(SQLMAP, sqlmapArgs(o), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.seconds * 1000);
    child.on('exit', () => {
      clearTimeout(timer);
      mkdirSync(o.outputDir, { recursive: true });
      writeFileSync(join(o.outputDir, 'sqlmap-output.txt'), output);
      resolve({ ...sqlmapVerdict(output), timedOut, output });
    });
  });
}

export function sqlmapVerdict(output: string): { injectable: boolean; dumped: boolean } {
  return {
    injectable: /sqlmap identified the following injection point|is vulnerable\. Do you want/.test(output),
    dumped: /Table: users\s*\n\[\d+ entr/.test(output),
  };
}
