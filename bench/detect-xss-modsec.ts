// CRS rule 941100 (@detectXSS after the CRS's transformations) in Cairn's engine and in nginx +
// ModSecurity v3 + the same Debian CRS, on a sample of libinjection's vectors sent as a form field:
// prints how many requests both engines decide alike (941100 matched or not), and each difference.
// Needs Debian's nginx and libnginx-mod-http-modsecurity (bench/waf-modsec.ts).
//
// Run: npx tsx bench/detect-xss-modsec.ts [--per-file N]

import { readFileSync } from 'node:fs';
import { loadCrsSync, type WafRequest } from '../packages/seclang/src/index.ts';
import { ModsecServer, modsecAvailability } from './waf-modsec.ts';

const perFileArg = process.argv.indexOf('--per-file');
const PER_FILE = perFileArg > 0 ? Number(process.argv[perFileArg + 1]) : 250;

interface Sample {
  file: string;
  line: number;
  input: string;
  xss: boolean;
}

function sample(file: string, count: number, keep: (v: Sample) => boolean = () => true): Sample[] {
  const url = new URL(`../packages/seclang/testdata/libinjection/${file}`, import.meta.url);
  const all = (JSON.parse(readFileSync(url, 'utf8')) as { vectors: Sample[] }).vectors.filter(keep);
  const step = Math.max(1, Math.floor(all.length / count));
  return all.filter((_, k) => k % step === 0).slice(0, count);
}

/** A form POST with the vector's bytes, percent-encoded, as the field `q`. */
function formPost(value: string): WafRequest {
  let body = 'q=';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    body += /[A-Za-z0-9]/.test(value[i]!) ? value[i] : `%${c.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return {
    method: 'POST',
    uri: '/comment',
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers: [
      ['Host', 'shop.example.com'],
      ['User-Agent', 'curl/8.5'],
      ['Accept', '*/*'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Length', String(body.length)],
    ],
    body: Buffer.from(body, 'latin1'),
  };
}

const missing = modsecAvailability();
if (missing) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}

const vectors = [
  ...sample('xss-samples.json', PER_FILE),
  ...sample('xss-samples.json', PER_FILE, (v) => !v.xss), // the attacks libinjection passes
  ...sample('xss-other-samples.json', PER_FILE),
];
const waf = loadCrsSync({ paranoiaLevel: 1 });
const modsec = await ModsecServer.start(1, { logLevel: 'info' }); // info: every matched rule is logged
let alike = 0;
const differences: string[] = [];
try {
  for (const v of vectors) {
    const request = formPost(v.input);
    const theirs = (await modsec.decide(request)).ruleIds.includes(941100);
    const ours = waf.evaluate(request).matchedRules.some((rule) => rule.id === 941100);
    if (theirs === ours) alike++;
    else
      differences.push(
        `${v.file}:${v.line} ModSecurity ${theirs}, Cairn ${ours}: ${JSON.stringify(v.input)}`,
      );
  }
} finally {
  await modsec.stop();
}
console.log(
  `rule 941100 at PL1, ${vectors.length} form POSTs: Cairn and ModSecurity decide alike on ${alike}`,
);
for (const line of differences) console.log(`  ${line}`);
