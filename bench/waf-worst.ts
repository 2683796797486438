// The WAF's worst case: every attack of the ReDoS suite (recheck's attacks on the CRS regexes and
// the 941160 inputs of issue 13) in every position (header, cookie, query, url-encoded, ~1,000 small
// url-encoded arguments, multipart, JSON, XML) at the largest size the edge proxy admits, through
// `evaluate` at PL1 and PL4. Prints
// the 20 worst cases by median CPU ms (of --rounds rounds over every case; the CPU clock, so other processes' load
// does not count) and whether every case is within the 50 ms target.
//
// --budget MS gives the engine a CPU budget (default: none, 60 s) to see what the budget bounds.
//
// Run: npx tsx bench/waf-worst.ts [--rounds N] [--pl 1|4] [--top N] [--budget MS]

import { cpus, loadavg } from 'node:os';
import { loadCrsSync } from '../packages/seclang/src/index.ts';
import { cpuMs, type RedosCase, redosCases } from '../packages/seclang/test/redos/cases.ts';

const TARGET_MS = 50;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const rounds = arg('rounds', 3);
const top = arg('top', 20);
const only = arg('pl', 0);
const budget = arg('budget', 60_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cases = redosCases();
console.log(
  `npx tsx bench/waf-worst.ts --rounds ${rounds} --budget ${budget}: ${cases.length} cases, ${cpus().length} cores, ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);

for (const pl of [1, 4] as const) {
  if (only && only !== pl) continue;
  const waf = loadCrsSync({ paranoiaLevel: pl, timeBudgetMs: budget });
  const rows: Array<{ c: RedosCase; ms: number; decision: string }> = [];
  const times = cases.map(() => [] as number[]);
  const decisions = cases.map(() => '');
  const started = performance.now();
  // Round after round over every case (not one case's rounds back to back): the cases met first in a
  // fresh process pay V8's warm-up in the first round only, and the median leaves that round out.
  for (let r = 0; r < rounds; r++) {
    cases.forEach((c, i) => {
      // each run starts from nothing remembered (seclang's value cache): the first sight of the attack
      waf.ruleset.values.clear();
      times[i]!.push(
        cpuMs(() => {
          const result = waf.evaluate(c.request);
          decisions[i] =
            result.decision +
            (result.timedOut ? ' (budget spent)' : '') +
            (result.bodyError ? ' (body error)' : '');
        }),
      );
    });
  }
  for (const [i, c] of cases.entries()) rows.push({ c, ms: median(times[i]!), decision: decisions[i]! });
  rows.sort((a, b) => b.ms - a.ms);
  const over = rows.filter((r) => r.ms > TARGET_MS).length;
  console.log(
    `\nPL${pl}: ${rows.length} cases in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `worst ${rows[0]?.ms.toFixed(1)} ms CPU, median ${median(rows.map((r) => r.ms)).toFixed(2)} ms; ` +
      `${over} over ${TARGET_MS} ms`,
  );
  console.log('  rule(s)                       position     size     CPU ms  decision');
  for (const { c, ms, decision } of rows.slice(0, top)) {
    console.log(
      `  ${c.target.slice(0, 28).padEnd(28)}  ${c.position.padEnd(11)} ${String(c.size).padStart(7)}  ` +
        `${ms.toFixed(1).padStart(8)}  ${decision}`,
    );
  }
}
