/** RFC 9110 §7.6.1: connection-specific fields, never forwarded (plus `expect`, answered here). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

const FORWARDED = new Set([
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'cf-connecting-ip',
  'cf-ray',
]);

/**
 * The names a `Connection` value lists that are not hop-by-hop already (those are dropped anyway), added to
 * `into` (created at the first one): the common values (`keep-alive`, `upgrade`) add none.
 */
export function listedNames(value: string, into: Set<string> | undefined): Set<string> | undefined {
  for (const t of value.includes(',') ? value.split(',') : [value]) {
    const name = t.trim().toLowerCase();
    if (name && !HOP_BY_HOP.has(name)) {
      into ??= new Set();
      into.add(name);
    }
  }
  return into;
}

export interface ForwardInfo {
  clientIp: string;
  proto: 'http' | 'https';
  host: string;
  rayId: string;
}

/** How many Host field lines the request has (node keeps only the first in `req.headers`). */
export function hostFieldCount(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') n++;
  }
  return n;
}

/**
 * The request headers for the origin, in arrival order with their case: hop-by-hop fields dropped, the
 * client appended to `X-Forwarded-For`, `X-Forwarded-Proto`/`-Host` and `CF-Connecting-IP`/`CF-Ray` set.
 */
export function originRequestHeaders(raw: readonly string[], info: ForwardInfo): string[] {
  const out: string[] = [];
  let extra: Set<string> | undefined;
  let forwardedFor: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (lower === 'connection') extra = listedNames(raw[i + 1] as string, extra);
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === 'x-forwarded-for') {
      forwardedFor = forwardedFor === undefined ? raw[i + 1] : `${forwardedFor}, ${raw[i + 1]}`;
      continue;
    }
    if (FORWARDED.has(lower)) continue;
    out.push(name, raw[i + 1] as string);
  }
  // names the Connection field lists are hop-by-hop too (it may come after them)
  const kept = extra ? withoutFields(out, extra) : out;
  if (extra?.has('x-forwarded-for')) forwardedFor = undefined;
  kept.push(
    'x-forwarded-for',
    forwardedFor ? `${forwardedFor}, ${info.clientIp}` : info.clientIp,
    'x-forwarded-proto',
    info.proto,
    'x-forwarded-host',
    info.host,
    'cf-connecting-ip',
    info.clientIp,
    'cf-ray',
    info.rayId,
  );
  return kept;
}

function withoutFields(pairs: readonly string[], names: Set<string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < pairs.length; i += 2)
    if (!names.has((pairs[i] as string).toLowerCase())) kept.push(pairs[i] as string, pairs[i + 1] as string);
  return kept;
}

/**
 * The origin's response head for the client as undici hands it over (raw name/value pairs, in order, with
 * their case): hop-by-hop fields and the origin's own `CF-Ray` dropped, everything else (repeated fields
 * too) kept as sent.
 */
export function clientResponseRawHeaders(raw: readonly Buffer[]): string[] {
  const out: string[] = [];
  let extra: Set<string> | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1');
    const lower = name.toLowerCase();
    if (lower === 'connection') extra = listedNames((raw[i + 1] as Buffer).toString('latin1'), extra);
    if (HOP_BY_HOP.has(lower) || lower === 'cf-ray') continue;
    out.push(name, (raw[i + 1] as Buffer).toString('latin1'));
  }
  // names the Connection field lists are hop-by-hop too (it may come after them)
  return extra ? withoutFields(out, extra) : out;
}
