// The differential harness's findings as a short Markdown note (--markdown file): the table per paranoia
// level, then the requests ModSecurity blocks and Cairn passes grouped by root cause, with examples.
import { writeFileSync } from 'node:fs';
import { describe, type Group, modsecOnly, type Row } from './waf-differential-report.ts';

function line(rows: Row[], pl: number, side: 'engine' | 'edge'): string {
  let m = 0;
  let c = 0;
  let b = 0;
  let n = 0;
  for (const r of rows) {
    const x = r.modsec[pl - 1];
    const y = r[side]?.[pl - 1];
    if (!x || !y || x.error || y.error) continue;
    if (x.blocked && y.blocked) b++;
    else if (x.blocked) m++;
    else if (y.blocked) c++;
    else n++;
  }
  return `| ${pl} | ${side} | ${m} | ${c} | ${b} | ${n} |`;
}

export function writeMarkdown(
  file: string,
  attacks: Row[],
  benign: Row[],
  levels: number[],
  list: Group[],
): void {
  const out: string[] = [
    `# Differential replay: ModSecurity v3 + Debian CRS against Cairn (threshold 5)`,
    '',
    `Written by \`bench/waf-differential.ts\` on ${new Date().toISOString()}: ${attacks.length} attack requests ` +
      `(sqlmap, wapiti, wapiti's payload files), ${benign.length} benign requests.`,
    '',
    '| PL | Cairn side | ModSec-only | Cairn-only | both | neither |',
    '|---|---|---|---|---|---|',
  ];
  for (const pl of levels) {
    out.push(line(attacks, pl, 'engine'));
    if (attacks.some((r) => r.edge)) out.push(line(attacks, pl, 'edge'));
  }
  out.push(
    '',
    '## False positives on the benign corpus',
    '',
    '| PL | ModSec | engine | edge |',
    '|---|---|---|---|',
  );
  for (const pl of levels) {
    const n = (side: 'modsec' | 'engine' | 'edge') => benign.filter((r) => r[side]?.[pl - 1]?.blocked).length;
    out.push(`| ${pl} | ${n('modsec')} | ${n('engine')} | ${n('edge')} |`);
  }
  out.push(
    '',
    "## Requests ModSecurity blocks and Cairn's engine passes, by root cause",
    '',
    'Grouped by paranoia level, where the payload sits, and the ModSecurity rules that fired (scoring rules aside).',
    '',
  );
  for (const g of list) {
    out.push(
      `### PL${g.pl} · ${g.location} · ModSecurity ${g.rules} · ${g.rows.length} requests · ${g.verdict}` +
        (g.entry ? ` (${(g.entry.pending ?? g.entry.reason).slice(0, 100)}…)` : ''),
      '',
    );
    for (const r of g.rows.slice(0, 4))
      out.push(`- \`${describe(r.request, 240).replace(/`/g, "'")}\` (${r.request.source})`);
    out.push('');
  }
  const edgeOnly = levels.map((pl) => `PL${pl}: ${modsecOnly(attacks, pl - 1, 'edge').length}`).join(', ');
  out.push(`Through the edge proxy, ModSecurity-only blocks: ${edgeOnly}.`, '');
  writeFileSync(file, out.join('\n'));
}
