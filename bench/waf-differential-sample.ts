// The quick subset of the differential harness that `npm test` replays without nginx
// (packages/seclang/test/waf-differential.test.ts): a few hundred attack requests with ModSecurity's
// recorded PL1 decision and rules, stratified by tool and location (every JSON and space2dash block
// ModSecurity made is kept, up to a cap), and the benign corpus with ModSecurity's decisions.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requestKey, writeJsonl } from '../packages/seclang/test/waf-differential/corpus.ts';
import type { Row } from './waf-differential-report.ts';

export const SAMPLE = fileURLToPath(
  new URL('../packages/seclang/testdata/waf-differential/pl1-sample.jsonl.gz', import.meta.url),
);

const PER_GROUP = 6;
const PRIORITY_CAP = 120;

export function writeSample(attacks: Row[], benign: Row[], file = SAMPLE): void {
  const ordered = [...attacks].sort((a, b) => requestKey(a.request).localeCompare(requestKey(b.request)));
  const chosen = new Set<Row>();
  const priority = ordered.filter(
    (r) =>
      r.modsec[0]?.blocked &&
      !r.modsec[0]?.error &&
      (r.location === 'json' || /space2dash/.test(r.request.source ?? '')),
  );
  for (const r of priority.slice(0, PRIORITY_CAP)) chosen.add(r);
  const perGroup = new Map<string, number>();
  for (const r of ordered) {
    if (r.modsec[0]?.error) continue;
    const key = `${(r.request.source ?? '').replace(/:[^:]*$/, '')}|${r.location}|${r.modsec[0]?.blocked}`;
    const n = perGroup.get(key) ?? 0;
    if (n >= PER_GROUP) continue;
    perGroup.set(key, n + 1);
    chosen.add(r);
  }
  const lines = [...chosen, ...benign.filter((r) => r.modsec[0] && !r.modsec[0].error)].map((r) => ({
    ...r.request,
    location: r.location,
    benign: benign.includes(r),
    modsec: { blocked: r.modsec[0]?.blocked, status: r.modsec[0]?.status, rules: r.modsec[0]?.rules },
  }));
  writeJsonl(file, lines);
  console.log(`sample: ${lines.length} requests with ModSecurity's PL1 decisions → ${file}`);
}

// Standalone: the sample from a replay's results (default: the last one's).
// Run: npx tsx bench/waf-differential-sample.ts [/tmp/cairn-waf-differential/results.json]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { attackRows, benignRows } = JSON.parse(
    readFileSync(process.argv[2] ?? '/tmp/cairn-waf-differential/results.json', 'utf8'),
  ) as { attackRows: Row[]; benignRows: Row[] };
  writeSample(attackRows, benignRows);
}
