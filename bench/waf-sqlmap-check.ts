// The "sqlmap dumps nothing" criterion of issue 40: the vulnerable origin behind Cairn's edge proxy (the PL1
// zone of bench/waf-edge-target.ts: edge Managed Ruleset + OWASP Core Ruleset, threshold 5, action block),
// sqlmap run against each injectable endpoint with each tamper script in turn; one row per tamper script
// saying, per endpoint, whether sqlmap confirmed an injection and whether it dumped the users table.
//
// Run: npm run waf:differential -- --sqlmap-check [--tampers a,b | all] [--seconds 120] [--jobs 2]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.ts';
import { runSqlmap, type SQLMAP_TARGETS, type SqlmapRun, tamperScripts } from './waf-sqlmap.ts';

const ORIGIN = fileURLToPath(new URL('./vulnerable-origin.ts', import.meta.url));
const EDGE_TARGET = fileURLToPath(new URL('./waf-edge-target.ts', import.meta.url));
const TARGETS = ['numeric', 'string', 'form', 'json'] as const;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const cell = (r: SqlmapRun) =>
  (r.dumped ? 'DUMPED' : r.injectable ? 'INJECTABLE' : 'no') + (r.timedOut ? '*' : '');

export async function sqlmapCheck(): Promise<void> {
  const listed = flag('--tampers');
  const tampers: Array<string | undefined> =
    listed === 'all'
      ? [undefined, ...tamperScripts()]
      : [undefined, ...(listed?.split(',') ?? ['space2dash', 'between', 'equaltolike', 'randomcase'])];
  const seconds = Number(flag('--seconds') ?? 120);
  const origin = await startChild<{ port: number }>(ORIGIN, []);
  const edge = await startChild<{ port: number; hosts: Record<string, string> }>(EDGE_TARGET, [
    `http://127.0.0.1:${origin.info.port}`,
  ]);
  const base = `http://127.0.0.1:${edge.info.port}`;
  const host = edge.info.hosts['1'] as string;
  console.log(
    `sqlmap through Cairn's edge proxy, PL1, threshold 5 (zone ${host}); ${seconds} s bound per run (* = hit)`,
  );
  console.log(`  ${'tamper'.padEnd(26)} ${TARGETS.map((t) => t.padEnd(12)).join('')}`);
  let failures = 0;
  try {
    const jobs = tampers.flatMap((tamper) => TARGETS.map((target) => ({ tamper, target })));
    const results = new Map<string, SqlmapRun>();
    let next = 0;
    await Promise.all(
      Array.from({ length: Number(flag('--jobs') ?? 2) }, async () => {
        while (next < jobs.length) {
          const { tamper, target } = jobs[next++] as (typeof jobs)[number];
          const r = await runSqlmap({
            base,
            target: target as keyof typeof SQLMAP_TARGETS,
            seconds,
            host,
            outputDir: join('/tmp/cairn-waf-sqlmap-check', `${tamper ?? 'none'}-${target}`),
            ...(tamper ? { tamper } : {}),
          });
          results.set(`${tamper ?? 'none'}|${target}`, r);
          const row = TARGETS.map((t) => results.get(`${tamper ?? 'none'}|${t}`));
          if (row.every(Boolean)) {
            console.log(
              `  ${(tamper ?? '(none)').padEnd(26)} ${row.map((x) => cell(x as SqlmapRun).padEnd(12)).join('')}`,
            );
            failures += row.filter((x) => x?.injectable || x?.dumped).length;
          }
        }
      }),
    );
  } finally {
    edge.kill();
    origin.kill();
  }
  console.log(`runs where sqlmap confirmed an injection or dumped rows: ${failures}`);
}
