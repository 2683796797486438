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

/** Extra names a `Connection` header lists are hop-by-hop too. */
function connectionTokens(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  const out = new Set<string>();
  for (const t of text.split(',')) {
    const name = t.trim().toLowerCase();
    if (name) out.add(name);
  }
  return out;
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
    if (lower === 'connection') {
      for (const t of connectionTokens(raw[i + 1]) ?? [])
        if (!HOP_BY_HOP.has(t)) {
          extra ??= new Set();
          extra.add(t);
        }
    }
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
    if (lower === 'connection') {
      extra ??= new Set();
      for (const t of connectionTokens((raw[i + 1] as Buffer).toString('latin1')) ?? []) extra.add(t);
    }
    if (HOP_BY_HOP.has(lower) || lower === 'cf-ray') continue;
    out.push(name, (raw[i + 1] as Buffer).toString('latin1'));
  }
  // names the Connection field lists are hop-by-hop too (it may come after them)
  return extra ? withoutFields(out, extra) : out;
}
