// CRS rule 942100 (@detectSQLi after the CRS's transformations) in Cairn's engine and in nginx +
// ModSecurity v3 + the same Debian CRS, on a sample of libinjection's SQLi vectors sent as the
// query argument `id`: prints how many requests both engines decide alike (942100 matched or not),
// and each difference. Needs Debian's nginx and libnginx-mod-http-modsecurity (bench/waf-modsec.ts).
//
// Run: npx tsx bench/detect-sqli-modsec.ts [--per-file N]

import { readFileSync } from 'node:fs';
import { loadCrsSync, type WafRequest } from '../packages/seclang/src/index.ts';
import { ModsecServer, modsecAvailability } from './waf-modsec.ts';

const perFileArg = process.argv.indexOf('--per-file');
const PER_FILE = perFileArg > 0 ? Number(process.argv[perFileArg + 1]) : 300;

interface Vector {
  source: string;
  input: string;
}

/** Every k-th vector of a file, about `count` of them. */
function sample(file: string, count: number): Vector[] {
  const url = new URL(`../packages/seclang/testdata/libinjection/${file}`, import.meta.url);
  const all = JSON.parse(readFileSync(url, 'utf8')) as Vector[];
  const step = Math.max(1, Math.floor(all.length / count));
  return all.filter((_, k) => k % step === 0).slice(0, count);
}

/** GET /item?id=<the vector's bytes, percent-encoded>. */
function queryGet(value: string): WafRequest {
  let id = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    id += /[A-Za-z0-9]/.test(value[i]!) ? value[i] : `%${c.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return {
    method: 'GET',
    uri: `/item?id=${id}`,
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [
      ['Host', 'shop.example.com'],
      ['User-Agent', 'curl/8.5'],
      ['Accept', '*/*'],
    ],
  };
}

const missing = modsecAvailability();
if (missing) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}

const vectors: Vector[] = [
  { source: 'issue 40 (sqlmap space2dash)', input: '1--x\nAND--x\n1=2' },
  ...sample('sqli-attack-samples.json', PER_FILE),
  ...sample('sqli-false-positives.json', PER_FILE),
  ...sample('sqli-fuzz.json', PER_FILE),
].filter((v) => v.input.length < 4000);
const waf = loadCrsSync({ paranoiaLevel: 1 });
const modsec = await ModsecServer.start(1, { logLevel: 'info' }); // info: every matched rule is logged
let alike = 0;
let matched = 0;
const differences: string[] = [];
try {
  for (const v of vectors) {
    const request = queryGet(v.input);
    const theirs = (await modsec.decide(request)).ruleIds.includes(942100);
    const ours = waf.evaluate(request).matchedRules.some((rule) => rule.id === 942100);
    if (theirs) matched++;
    if (theirs === ours) alike++;
    else differences.push(`${v.source} ModSecurity ${theirs}, Cairn ${ours}: ${JSON.stringify(v.input)}`);
  }
} finally {
  await modsec.stop();
}
console.log(
  `rule 942100 at PL1, ${vectors.length} GETs (ModSecurity matched ${matched}): Cairn and ModSecurity decide alike on ${alike}`,
);
for (const line of differences) console.log(`  ${line}`);
