// The Managed Ruleset's attack rules: CPU per request over the inputs a request yields (issue 40, point 5),
// for a benign 2 KB JSON body and for 128 KiB bodies (the default EDGE_WAF_BODY_LIMIT) built to be hard on
// each matcher (long runs of what its patterns start with). Prints the median of this thread's CPU time per
// evaluation and, per hostile body, the ratio to the benign 128 KiB one: linear matchers keep it small.
//
// Run: npx tsx bench/managed-attack-rules.ts [rounds, default 20]
import { engineScheme } from '../services/edge/src/engine/expressions.ts';
import { inspectedInputs } from '../services/edge/src/engine/inputs/index.ts';
import { RequestView } from '../services/edge/src/engine/request.ts';
import { ATTACK_RULES } from '../services/edge/src/managed/attack-rules.ts';

const rounds = Number(process.argv[2] ?? 20);
const scheme = engineScheme();
const KIB = 1024;
const fill = (unit: string, bytes = 128 * KIB) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

function view(type: string, body: string): RequestView {
  return new RequestView(
    {
      method: 'POST',
      url: '/api/items?q=select+a+dress&page=2',
      rawUrl: '/api/items?q=select+a+dress&page=2',
      httpVersion: '1.1',
      rawHeaders: [
        'host',
        'x.example',
        'content-type',
        type,
        'user-agent',
        'Mozilla/5.0 (X11; Linux x86_64)',
        'cookie',
        'a=1; b=2',
      ],
      ip: '192.0.2.1',
      host: 'x.example',
      scheme: 'https',
      port: 443,
      body: Buffer.from(body),
      bodyTruncated: false,
      rayId: '0123456789abcdef',
      timestamp: 0,
      zone: { name: 'x.example', plan: 'pro' },
    },
    scheme,
  );
}

function evaluate(type: string, body: string): void {
  const v = view(type, body);
  for (const rule of ATTACK_RULES)
    for (const input of inspectedInputs(v)) if (rule.reads(input)) rule.match(input.value);
}

const item = {
  name: "O'Brien's tent",
  note: 'select a dress; drop-down menu, 1 or 2 people',
  price: 120.5,
  tags: ['a', 'b'],
};
const cases: [string, string, string][] = [
  ['benign JSON 2 KB', 'application/json', JSON.stringify(Array.from({ length: 18 }, () => item))],
  ['benign JSON 128 KiB', 'application/json', JSON.stringify(Array.from({ length: 1150 }, () => item))],
  ['text of "--x\\n" (comments)', 'text/plain', fill('--x\n')],
  ['text of quotes and parens', 'text/plain', fill(`'"(),.`.replace('"', 'x'))],
  ['text of "<" and "<script"', 'text/plain', fill('<scrip<')],
  ['text of ";" separators', 'text/plain', fill('; ;|&')],
  ['text of "../"', 'text/plain', fill('..\\.')],
  ['text of "http://" URLs', 'text/plain', fill('http://a')],
  ['form of 8,000 fields', 'application/x-www-form-urlencoded', fill('a=%27%22&')],
  [
    'multipart of 3,000 parts',
    'multipart/form-data; boundary=b',
    fill('--b\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n'),
  ],
  ['XML of 10,000 attributes', 'text/xml', `<a ${fill('x="1" ')}/>`],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
let reference = 0;
for (const [name, type, body] of cases) {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.cpuUsage();
    evaluate(type, body);
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  const m = median(times);
  if (name === 'benign JSON 128 KiB') reference = m;
  const ratio =
    reference > 0 && name !== 'benign JSON 2 KB' ? ` (${(m / reference).toFixed(1)}× benign 128 KiB)` : '';
  console.log(
    `${name.padEnd(30)} ${(body.length / KIB).toFixed(1).padStart(6)} KiB  median ${m.toFixed(2).padStart(7)} ms CPU${ratio}`,
  );
}
