// The payload files shipped with Debian's wapiti (wapitiCore/data/attacks), as requests to the vulnerable
// origin in each injectable location: query string, form body, JSON body, a header and a cookie (and XML
// bodies for the XXE payloads). Placeholders are filled the way wapiti fills them when it attacks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '../packages/seclang/test/waf-differential/corpus.ts';

export const WAPITI_ATTACKS = '/usr/lib/python3/dist-packages/wapitiCore/data/attacks';

const BROWSER: Array<[string, string]> = [
  ['Host', '127.0.0.1'],
  ['User-Agent', 'Mozilla/5.0 (Windows NT 6.1; rv:45.0) Gecko/20100101 Firefox/45.0'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Language', 'en-US'],
];

const PLACEHOLDERS: Array<[RegExp, string]> = [
  [/\[LF\]/g, '\n'],
  [/\[TAB\]/g, '\t'],
  [/\[FF\]/g, '\f'],
  [/\[TIME\]/g, '6'],
  [/\[VALUE\]/g, '127.0.0.1'],
  [/\[DIRVALUE\]/g, 'files/'],
  [/\[EXTVALUE\]/g, 'notes'],
  [/\[FILE_NAME\]/g, 'notes.txt'],
  [/\[EXTERNAL_ENDPOINT\]/g, 'http://wapiti3.example.test/'],
  [/\[SESSION_ID\]/g, '5a1b2c3d'],
  [/\[PATH_ID\]/g, '1'],
  [/\[PARAM_AS_HEX\]/g, '71'],
  [/\[ATTR_SEP\]/g, ' '],
  [/\[VALUE_SEP\]/g, ''],
  [/\[TIMEOUT\]/g, ''],
  [/__XSS__/g, 'w4p1t1x55'],
  [/\\0/g, '\0'],
];

function fill(payload: string): string {
  let s = payload;
  for (const [re, value] of PLACEHOLDERS) s = s.replace(re, value);
  return s;
}

/** Payload lines of a .txt file, or the `payload = …` values of an .ini file. */
export function payloadsOf(file: string): string[] {
  const text = readFileSync(join(WAPITI_ATTACKS, file), 'utf8');
  const lines = file.endsWith('.ini')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('payload ='))
        .map((l) => l.slice('payload ='.length).trim())
    : text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(';'));
  return [...new Set(lines.map(fill))];
}

/** The same payload in each injectable location of the origin. */
export function inLocations(payload: string, source: string): RecordedRequest[] {
  const q = encodeURIComponent(payload);
  const get = (url: string, extra: Array<[string, string]> = []): RecordedRequest => ({
    method: 'GET',
    url,
    headers: [...BROWSER, ...extra],
    source: `${source}:${extra.length ? extra[0]?.[0].toLowerCase() : 'query'}`,
  });
  const post = (url: string, type: string, body: string, where: string): RecordedRequest => ({
    method: 'POST',
    url,
    headers: [...BROWSER, ['Content-Type', type]],
    body,
    source: `${source}:${where}`,
  });
  const list = [
    get(`/search?q=${q}`),
    post('/comment', 'application/x-www-form-urlencoded', `text=${q}`, 'form'),
    post('/api/items', 'application/json', JSON.stringify({ name: payload, limit: 5 }), 'json'),
    get('/item?id=1', [['Cookie', `pref=${q}`]]),
    get('/item?id=1', [['Referer', payload.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ')]]),
  ];
  if (payload.startsWith('<?xml')) list.push(post('/api/items', 'application/xml', payload, 'xml'));
  return list;
}

const FILES = [
  'blindSQLPayloads.txt',
  'execPayloads.txt',
  'fileHandlingPayloads.ini',
  'xssPayloads.ini',
  'xxePayloads.ini',
];

export function wapitiPayloadRequests(): RecordedRequest[] {
  if (!existsSync(WAPITI_ATTACKS)) return [];
  return FILES.flatMap((file) => payloadsOf(file).flatMap((p) => inLocations(p, `wapiti-payloads:${file}`)));
}
