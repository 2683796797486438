import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/** Cloud instance metadata services: AWS, GCP, Azure, Oracle, DigitalOcean (169.254.169.254), Alibaba, AWS over IPv6. */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  'fd00:ec2::254',
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'metadata.azure.com',
]);

/** URLs in a value: scheme, optional user info, host (bracketed IPv6 or a name). */
const URL_HOST =
  /\b([a-z][a-z0-9+.-]{1,16}):\/\/(?:[^/?#@\s]{0,128}@)?(\[[0-9a-f:.]{2,64}\]|[^/?#:\s\\]{1,253})/gi;

/** Schemes that talk raw protocols to internal services whatever the host. */
const RAW_SCHEMES = new Set(['gopher', 'dict', 'ldap', 'tftp', 'jar:http', 'netdoc']);

/** inet_aton's reading of an IPv4 host: 1 to 4 parts, each decimal, 0x-hex or 0-octal (`2130706433`, `0x7f.1`, `0177.0.0.1`). */
function looseIpv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]{1,8}$/i.test(p)) n = Number.parseInt(p.slice(2), 16);
    else if (/^0[0-7]{1,11}$/.test(p)) n = Number.parseInt(p, 8);
    else if (/^\d{1,10}$/.test(p)) n = Number(p);
    else return undefined;
    nums.push(n);
  }
  const last = nums.pop() as number;
  let ip = 0;
  for (const [i, n] of nums.entries()) {
    if (n > 255) return undefined;
    ip += n * 256 ** (3 - i);
  }
  if (last >= 256 ** (4 - nums.length)) return undefined;
  return ip + last;
}

function internalIpv4(ip: number): boolean {
  const a = Math.floor(ip / 2 ** 24);
  const b = Math.floor(ip / 2 ** 16) % 256;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function internalIpv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === '::1' || h === '::' || /^f[cd][0-9a-f]{0,2}:/.test(h) || h.startsWith('fe80:')) return true;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
  const ip = mapped ? looseIpv4(mapped[1] as string) : undefined;
  return ip !== undefined && internalIpv4(ip);
}

/** What the host names, when it is internal: `metadata`, `loopback or private`, or undefined. */
export function internalHost(rawHost: string): 'metadata' | 'internal' | undefined {
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (METADATA_HOSTS.has(bare)) return 'metadata';
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare.endsWith('.internal')) return 'internal';
  if (bare.includes(':')) return internalIpv6(bare) ? 'internal' : undefined;
  const ip = looseIpv4(bare);
  if (ip === undefined) return undefined;
  if (ip === 0xa9fea9fe || ip === 0x646464c8) return 'metadata';
  return internalIpv4(ip) ? 'internal' : undefined;
}

function findUrl(reading: string, wanted: 'metadata' | 'internal'): string | undefined {
  for (const m of reading.matchAll(URL_HOST)) {
    const scheme = (m[1] as string).toLowerCase();
    if (wanted === 'internal' && RAW_SCHEMES.has(scheme)) return m[0];
    const kind = internalHost(m[2] as string);
    if (kind === wanted || (wanted === 'internal' && kind === 'metadata')) return m[0];
  }
  const bare = reading.trim();
  // A metadata address given alone (a host or URL field) is as telling as in a URL.
  if (wanted === 'metadata' && bare.length <= 64 && internalHost(bare.split(/[:/]/)[0] ?? '') === 'metadata')
    return bare;
  return undefined;
}

/** SSRF towards a cloud metadata service. */
export const ssrfMetadata: AttackMatcher = (value) => firstMatch(value, (r) => findUrl(r, 'metadata'));

/** SSRF towards the loopback, a private or link-local address, or through a raw-protocol scheme (gopher://, dict://). */
export const ssrfInternal: AttackMatcher = (value) => firstMatch(value, (r) => findUrl(r, 'internal'));
