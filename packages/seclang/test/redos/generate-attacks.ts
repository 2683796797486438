// Regenerates testdata/redos-attacks.json: for every regex the CRS 3.3 runs on requests (PL4, phases
// 1–2, as translated for V8), recheck's verdict and, for the regexes it finds super-linear, its attack
// as prefix + pump × n + suffix, so tests build attack strings of any size. recheck needs seconds per
// regex, so the result is committed and the ReDoS test reads it.
//
// Run: npx tsx packages/seclang/test/redos/generate-attacks.ts   (about 10 minutes)

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { check } from 'recheck';
import { loadCrsSync } from '../../src/index.ts';
import { translatePcre } from '../../src/regex/translate.ts';
import { ATTACKS_FILE, type RedosEntry } from './attack-file.ts';

/** Every distinct @rx of the request phases, translated, with the rules that run it. */
export function requestRegexes(): Map<string, { source: string; flags: string; rules: number[] }> {
  const waf = loadCrsSync({ paranoiaLevel: 4, warmUp: false });
  const out = new Map<string, { source: string; flags: string; rules: number[] }>();
  for (const top of waf.ruleset.rules()) {
    if (top.phase > 2) continue;
    for (let r: typeof top | undefined = top; r; r = r.chained) {
      if (r.operatorName !== 'rx' || r.operatorArg.includes('%{')) continue;
      const { source, flags } = translatePcre(r.operatorArg);
      const entry = out.get(source) ?? { source, flags, rules: [] };
      if (!entry.rules.includes(top.id)) entry.rules.push(top.id);
      out.set(source, entry);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const entries: RedosEntry[] = [];
  for (const { source, flags, rules } of requestRegexes().values()) {
    const started = Date.now();
    const r = await check(source, flags, { timeout: 30_000 });
    const entry: RedosEntry = { rules, source, flags, status: r.status };
    if (r.status === 'vulnerable') {
      entry.complexity = r.complexity.type;
      entry.pumps = r.attack.pumps.map((p) => ({ prefix: p.prefix, pump: p.pump }));
      entry.suffix = r.attack.suffix;
    }
    entries.push(entry);
    console.log(`${rules.join(',')}: ${r.status} ${entry.complexity ?? ''} (${Date.now() - started} ms)`);
  }
  writeFileSync(ATTACKS_FILE, `${JSON.stringify(entries, null, 1)}\n`);
  console.log(
    `${entries.length} regexes, ${entries.filter((e) => e.pumps).length} with attacks → ${ATTACKS_FILE}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
