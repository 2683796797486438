// The Cloudflare Managed Ruleset alone, at its defaults, against the differential harness's recorded
// corpus (issue 40, point 5): the sqlmap and wapiti requests of packages/seclang/testdata/waf-differential
// /pl1-sample.jsonl.gz, each with ModSecurity v3's PL1 threshold-5 decision, and its benign requests, plus
// bench/data/benign-requests.json, replayed through Cairn's edge proxy (no OWASP ruleset). Prints, per
// source, how many of the attacks ModSecurity blocks the ruleset blocks too, the attacks it blocks that
// ModSecurity passes, and every benign request it blocks (false positives) beside ModSecurity's.
//
// Run: npx tsx bench/managed-ruleset-replay.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { bodyOf, type RecordedRequest, readJsonl } from '../packages/seclang/test/waf-differential/corpus.ts';
import { startChild } from './child.ts';

interface Sample extends RecordedRequest {
  benign?: boolean;
  modsec?: { blocked: boolean };
}

const SAMPLE = fileURLToPath(
  new URL('../packages/seclang/testdata/waf-differential/pl1-sample.jsonl.gz', import.meta.url),
);
const BENIGN = fileURLToPath(new URL('./data/benign-requests.json', import.meta.url));
const EDGE = fileURLToPath(new URL('./managed-ruleset-edge.ts', import.meta.url));

const origin = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const edge = await startChild<{ port: number; host: string }>(EDGE, [
  `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
]);

/** A request in one line: its source, where the payload is (the harness's `location`) and what it holds there. */
function describe(r: Sample & { location?: string }): string {
  const where = r.location ?? '?';
  const header = r.headers.find(
    ([n]) => n.toLowerCase() === where || (where === 'cookie' && n.toLowerCase() === 'cookie'),
  );
  const payload = header
    ? header[1]
    : where.startsWith('body') || where === 'json' || where === 'form'
      ? (r.body ?? '')
      : r.url;
  return `${r.source ?? '?'} [${where}] ${r.method} ${r.url.slice(0, 60)} :: ${payload.slice(0, 160)}`;
}

async function status(r: RecordedRequest): Promise<number> {
  const headers: [string, string][] = r.headers.filter(
    ([n]) => !/^(host|content-length|transfer-encoding|connection)$/i.test(n),
  );
  const body = bodyOf(r);
  const res = await request(`http://127.0.0.1:${edge.info.port}${r.url}`, {
    method: r.method,
    headers: [['host', edge.info.host], ...headers].flat(),
    ...(body ? { body } : {}),
  });
  await res.body.dump();
  return res.statusCode;
}

try {
  const sample = readJsonl(SAMPLE) as Sample[];
  const attacks = sample.filter((r) => !r.benign);
  const benign = [
    ...sample.filter((r) => r.benign),
    ...(JSON.parse((await import('node:fs')).readFileSync(BENIGN, 'utf8')) as Sample[]),
  ];
  const bySource = new Map<
    string,
    { modsecBlocks: number; bothBlock: number; onlyOurs: number; total: number; missed: string[] }
  >();
  for (const r of attacks) {
    const source = (r.source ?? '?').split(':')[0] as string;
    const row = bySource.get(source) ?? { modsecBlocks: 0, bothBlock: 0, onlyOurs: 0, total: 0, missed: [] };
    const ours = (await status(r)) === 403;
    row.total++;
    if (r.modsec?.blocked) {
      row.modsecBlocks++;
      if (ours) row.bothBlock++;
      else if (row.missed.length < 12) row.missed.push(describe(r));
    } else if (ours) row.onlyOurs++;
    bySource.set(source, row);
  }
  console.log(
    'Attacks (recorded sqlmap and wapiti requests), Managed Ruleset alone vs ModSecurity v3 + CRS PL1 threshold 5:',
  );
  console.log(
    'source            requests  ModSecurity blocks  Managed Ruleset blocks of those  blocked by ours only',
  );
  for (const [source, row] of bySource) {
    console.log(
      `${source.padEnd(18)}${String(row.total).padStart(8)}${String(row.modsecBlocks).padStart(20)}${`${row.bothBlock} (${((100 * row.bothBlock) / Math.max(1, row.modsecBlocks)).toFixed(1)}%)`.padStart(33)}${String(row.onlyOurs).padStart(22)}`,
    );
    for (const m of row.missed) console.log(`    passed: ${m}`);
  }
  let ours = 0;
  let theirs = 0;
  const fps: string[] = [];
  for (const r of benign) {
    if ((await status(r)) === 403) {
      ours++;
      fps.push(`${r.method} ${r.url.slice(0, 140)}${r.body ? ` body ${r.body.slice(0, 80)}` : ''}`);
    }
    if (r.modsec?.blocked) theirs++;
  }
  console.log(
    `\nBenign requests: ${benign.length}; blocked by the Managed Ruleset: ${ours}; by ModSecurity (sample's share only): ${theirs}`,
  );
  for (const fp of fps) console.log(`    false positive: ${fp}`);
} finally {
  edge.kill();
  origin.close();
}
