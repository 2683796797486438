// The tables of the differential harness (issue 40): both directions of difference per paranoia level, per
// ModSecurity rule, false positives on the benign corpus, and the ModSecurity-only blocks grouped by root
// cause (location and the rules that fired), each classified as argued exception, pending fix or open.
import type { RecordedRequest } from '../packages/seclang/test/waf-differential/corpus.ts';
import {
  type Difference,
  type ExceptionEntry,
  exceptionFor,
  SCORING_RULES,
} from '../packages/seclang/test/waf-differential/exceptions.ts';
import type { Verdict } from './waf-verdicts.ts';

export interface Row {
  request: RecordedRequest;
  location: string;
  /** Verdicts by paranoia level (index 0 = PL1); absent where that side was not run. */
  modsec: Verdict[];
  engine: Verdict[];
  edge?: Verdict[];
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const signature = (rules: number[]) =>
  rules
    .filter((id) => !SCORING_RULES.has(id))
    .sort((a, b) => a - b)
    .join(',') || '(scoring only)';

function counts(rows: Row[], i: number, side: 'engine' | 'edge') {
  const c = { modsecOnly: 0, cairnOnly: 0, both: 0, neither: 0, skipped: 0 };
  for (const r of rows) {
    const m = r.modsec[i];
    const o = r[side]?.[i];
    if (!m || !o || m.error || o.error) {
      c.skipped++;
      continue;
    }
    if (m.blocked && o.blocked) c.both++;
    else if (m.blocked) c.modsecOnly++;
    else if (o.blocked) c.cairnOnly++;
    else c.neither++;
  }
  return c;
}

export function modsecOnly(rows: Row[], i: number, side: 'engine' | 'edge' = 'engine'): Row[] {
  return rows.filter((r) => {
    const m = r.modsec[i];
    const o = r[side]?.[i];
    return m && o && !m.error && !o.error && m.blocked && !o.blocked;
  });
}

export function printDirections(rows: Row[], levels: number[]): void {
  const hasEdge = rows.some((r) => r.edge);
  console.log(
    `\nattack corpus: ${rows.length} requests; ModSecurity (nginx + libmodsecurity3 + Debian CRS) against Cairn, threshold 5`,
  );
  console.log(
    `  ${'PL'.padEnd(3)} ${'side'.padEnd(7)} ${pad('ModSec-only', 11)} ${pad('Cairn-only', 10)} ${pad('both', 6)} ${pad('neither', 7)} ${pad('not sent', 8)}`,
  );
  for (const pl of levels) {
    for (const side of hasEdge ? (['engine', 'edge'] as const) : (['engine'] as const)) {
      const c = counts(rows, pl - 1, side);
      console.log(
        `  ${`${pl}`.padEnd(3)} ${side.padEnd(7)} ${pad(c.modsecOnly, 11)} ${pad(c.cairnOnly, 10)} ${pad(c.both, 6)} ${pad(c.neither, 7)} ${pad(c.skipped, 8)}`,
      );
    }
  }
}

/** Per ModSecurity rule: on how many requests it fired where ModSecurity blocked and Cairn's engine passed. */
export function printPerRule(rows: Row[], levels: number[]): void {
  const table = new Map<number, number[]>();
  for (const pl of levels) {
    for (const r of modsecOnly(rows, pl - 1)) {
      for (const id of r.modsec[pl - 1]?.rules ?? []) {
        if (SCORING_RULES.has(id)) continue;
        const row = table.get(id) ?? levels.map(() => 0);
        row[levels.indexOf(pl)] = (row[levels.indexOf(pl)] ?? 0) + 1;
        table.set(id, row);
      }
    }
  }
  console.log("\nModSecurity rules that fired on requests ModSecurity blocked and Cairn's engine passed");
  console.log(`  ${'rule'.padEnd(8)} ${levels.map((pl) => pad(`PL${pl}`, 6)).join(' ')}`);
  for (const [id, n] of [...table].sort((a, b) => (b[1][0] ?? 0) - (a[1][0] ?? 0) || a[0] - b[0]))
    console.log(`  ${String(id).padEnd(8)} ${n.map((x) => pad(x, 6)).join(' ')}`);
  if (table.size === 0) console.log('  (none)');
  // the other direction, by the Cairn rule that fired
  const other = new Map<number, number[]>();
  for (const pl of levels) {
    for (const r of rows) {
      const m = r.modsec[pl - 1];
      const e = r.engine[pl - 1];
      if (!m || !e || m.error || m.blocked || !e.blocked) continue;
      for (const id of e.rules) {
        if (SCORING_RULES.has(id)) continue;
        const row = other.get(id) ?? levels.map(() => 0);
        row[levels.indexOf(pl)] = (row[levels.indexOf(pl)] ?? 0) + 1;
        other.set(id, row);
      }
    }
  }
  console.log("\nCairn rules that fired on requests Cairn's engine blocked and ModSecurity passed");
  console.log(`  ${'rule'.padEnd(8)} ${levels.map((pl) => pad(`PL${pl}`, 6)).join(' ')}`);
  for (const [id, n] of [...other].sort((a, b) => (b[1][0] ?? 0) - (a[1][0] ?? 0) || a[0] - b[0]))
    console.log(`  ${String(id).padEnd(8)} ${n.map((x) => pad(x, 6)).join(' ')}`);
  if (other.size === 0) console.log('  (none)');
}

export function printFalsePositives(rows: Row[], levels: number[]): void {
  console.log(`\nbenign corpus: ${rows.length} requests; blocked (false positives)`);
  console.log(`  ${'PL'.padEnd(3)} ${pad('ModSec', 7)} ${pad('engine', 7)} ${pad('edge', 7)}`);
  for (const pl of levels) {
    const n = (side: 'modsec' | 'engine' | 'edge') =>
      rows.some((r) => r[side]) ? rows.filter((r) => r[side]?.[pl - 1]?.blocked).length : '-';
    console.log(`  ${`${pl}`.padEnd(3)} ${pad(n('modsec'), 7)} ${pad(n('engine'), 7)} ${pad(n('edge'), 7)}`);
  }
  for (const pl of levels)
    for (const r of rows.filter((x) => x.engine[pl - 1]?.blocked || x.modsec[pl - 1]?.blocked))
      console.log(
        `  PL${pl} ${r.request.method} ${r.request.url.slice(0, 70)} ${r.request.body?.slice(0, 60) ?? ''}  ` +
          `ModSec ${r.modsec[pl - 1]?.blocked ? 'block' : 'pass'} [${signature(r.modsec[pl - 1]?.rules ?? [])}], ` +
          `Cairn ${r.engine[pl - 1]?.blocked ? 'block' : 'pass'} [${signature(r.engine[pl - 1]?.rules ?? [])}]`,
      );
}

export interface Group {
  pl: number;
  location: string;
  rules: string;
  rows: Row[];
  verdict: 'exception' | 'pending' | 'open';
  entry?: ExceptionEntry;
}

/** ModSecurity-only blocks (engine) grouped by paranoia level, location and the ModSecurity rules that fired. */
export function groups(rows: Row[], levels: number[], exceptions: readonly ExceptionEntry[]): Group[] {
  const out = new Map<string, Group>();
  for (const pl of levels) {
    for (const r of modsecOnly(rows, pl - 1)) {
      const rules = signature(r.modsec[pl - 1]?.rules ?? []);
      const d: Difference = {
        request: r.request,
        location: r.location,
        pl,
        modsecRules: r.modsec[pl - 1]?.rules ?? [],
      };
      const entry = exceptionFor(exceptions, d);
      const verdict = !entry ? 'open' : entry.pending ? 'pending' : 'exception';
      const key = `${pl}|${r.location}|${rules}|${verdict}`;
      const g = out.get(key) ?? {
        pl,
        location: r.location,
        rules,
        rows: [],
        verdict,
        ...(entry ? { entry } : {}),
      };
      g.rows.push(r);
      out.set(key, g);
    }
  }
  return [...out.values()].sort((a, b) => a.pl - b.pl || b.rows.length - a.rows.length);
}

export const describe = (r: RecordedRequest, max = 160) => {
  const body = r.body ?? (r.bodyBase64 ? `<base64 ${r.bodyBase64.length}>` : '');
  const injected = r.headers
    .filter(([n, v]) => /^(cookie|referer)$/i.test(n) && v !== 'pref=1' && !v.startsWith('http://127.0.0.1'))
    .map(([n, v]) => `  ${n}: ${v}`)
    .join('');
  const text = `${r.method} ${r.url}${injected}${body ? `  body: ${body}` : ''}`;
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

export function printGroups(list: Group[]): void {
  const by = (v: Group['verdict']) =>
    list.filter((g) => g.verdict === v).reduce((n, g) => n + g.rows.length, 0);
  console.log(
    `\nModSecurity-only blocks (engine), by root cause: ${by('open')} open, ${by('pending')} pending a fix, ${by('exception')} argued exceptions`,
  );
  for (const g of list.slice(0, 60)) {
    console.log(
      `  PL${g.pl} ${g.location.padEnd(9)} ${pad(g.rows.length, 5)}  ${g.verdict.padEnd(9)} ModSec rules ${g.rules}` +
        (g.entry ? `  (${(g.entry.pending ?? g.entry.reason).slice(0, 60)})` : ''),
    );
    for (const r of g.rows.slice(0, 2)) console.log(`      ${describe(r.request, 150)}`);
  }
}
