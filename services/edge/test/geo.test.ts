import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EdgeRequest, geoDatabase, type Zone } from '../src/index.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Real IP geolocation (issue 15, item 4): ip.src.country, ip.src.continent, ip.src.asnum and
// ip.src.is_in_european_union from the open databases shipped in npm, with addresses taken from those
// databases. The proxy sees only loopback clients, so requests from those addresses go through the
// engine itself (the same plan the proxy runs).
let f: ProxyFixture;

beforeAll(async () => {
  f = await startProxyFixture();
}, 60_000);
afterAll(() => f?.close());

/** Addresses of the ASN table: the first address of rows spread over the IPv4 file, and some IPv6 ones. */
function sampleAddresses(): string[] {
  const dir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json'));
  const v4 = readFileSync(join(dir, 'asn-ipv4.csv'), 'latin1').split('\n');
  const v6 = readFileSync(join(dir, 'asn-ipv6.csv'), 'latin1').split('\n');
  const pick = (lines: string[], n: number) =>
    Array.from({ length: n }, (_, i) => lines[Math.floor((i * lines.length) / n)]?.split(',')[0] ?? '');
  return [...pick(v4, 40), ...pick(v6, 10)].filter((a) => a !== '');
}

function request(zone: Zone, ip: string, path = '/'): EdgeRequest {
  return {
    method: 'GET',
    url: path,
    rawUrl: path,
    httpVersion: '1.1',
    rawHeaders: ['Host', zone.name, 'User-Agent', 'geo-test/1.0'],
    ip,
    host: zone.name,
    scheme: 'http',
    port: 80,
    bodyTruncated: false,
    rayId: '0123456789abcdef',
    timestamp: Date.now(),
    zone: { name: zone.name, plan: zone.plan },
  };
}

async function decide(zone: Zone, ip: string, path = '/') {
  const plan = await f.edge.engine.planFor(zone.id);
  return f.edge.engine.evaluate(plan!, request(zone, ip, path)).terminal?.action ?? 'pass';
}

async function deployCustom(zone: Zone, rules: Record<string, unknown>[]) {
  await f.changed(zone.id, async () => {
    const res = await f.call(
      'PUT',
      `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules },
    );
    expect(res.status, res.text).toBe(200);
  });
}

describe('the IP database', () => {
  it('knows well-known addresses, and nothing of private ones', () => {
    const db = geoDatabase();
    expect(db.lookup('8.8.8.8')).toMatchObject({ country: 'US', continent: 'NA', asnum: 15169 });
    expect(db.lookup('::ffff:8.8.8.8')).toMatchObject({ country: 'US', asnum: 15169 });
    expect(db.lookup('1.1.1.1')?.asnum).toBe(13335);
    expect(db.lookup('127.0.0.1')).toBeUndefined();
    expect(db.lookup('10.1.2.3')).toBeUndefined();
    expect(db.lookup('not an address')).toBeUndefined();
    expect(db.info.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(db.info.sources.map((s) => s.package)).toEqual([
      '@ip-location-db/geo-whois-asn-country-mmdb',
      '@ip-location-db/asn',
    ]);
  });

  it('/readyz says which database and of what date', async () => {
    const ready = (await (await fetch(f.api.replace(/\/client\/v4$/, '/readyz'))).json()) as {
      status: string;
      edge: { ip_database: { date: string; sources: { package: string }[] } };
    };
    expect(ready.status).toBe('ready');
    expect(ready.edge.ip_database.date).toBe(geoDatabase().info.date);
    expect(ready.edge.ip_database.sources).toHaveLength(2);
  });

  it('gives every country it returns a continent', () => {
    const db = geoDatabase();
    for (const address of sampleAddresses()) {
      const g = db.lookup(address);
      if (g?.country) expect(g.continent, `${address} in ${g.country}`).toMatch(/^(AF|AN|AS|EU|NA|OC|SA)$/);
    }
  });
});

describe('rules by country and ASN', () => {
  it('block exactly the addresses of the country, continent or AS the rule names', async () => {
    const db = geoDatabase();
    const addresses = sampleAddresses();
    const located = addresses.map((a) => ({ a, g: db.lookup(a) })).filter((x) => x.g?.country && x.g.asnum);
    expect(located.length).toBeGreaterThan(20);
    const target = located[3]!.g!;
    const zone = await f.zone('geo.example.com', 'enterprise');
    await deployCustom(zone, [
      { action: 'block', expression: `ip.src.country eq "${target.country}"` },
      { action: 'managed_challenge', expression: `ip.src.asnum eq ${target.asnum}` },
      { action: 'js_challenge', expression: `ip.src.continent eq "${target.continent}"` },
      { action: 'log', expression: 'ip.src.is_in_european_union' },
    ]);
    for (const { a, g } of located) {
      const expected =
        g!.country === target.country
          ? 'block'
          : g!.asnum === target.asnum
            ? 'managed_challenge'
            : g!.continent === target.continent
              ? 'js_challenge'
              : 'pass';
      expect(await decide(zone, a), `${a} (${g!.country}, AS${g!.asnum})`).toBe(expected);
    }
    // loopback is in no country: a country rule neither matches it nor errs
    expect(await decide(zone, '127.0.0.1')).toBe('pass');
  });

  it('ne "US" no longer matches every request', async () => {
    const zone = await f.zone('geo-ne.example.com', 'free');
    await deployCustom(zone, [{ action: 'block', expression: 'ip.src.country ne "US"' }]);
    expect(await decide(zone, '8.8.8.8')).toBe('pass');
    expect(await decide(zone, '1.1.1.1')).toBe('block');
  });

  it('the deprecated ip.geoip.* names read the same values', async () => {
    const zone = await f.zone('geo-old.example.com', 'free');
    await deployCustom(zone, [
      { action: 'block', expression: 'ip.geoip.asnum eq 15169 and ip.geoip.country eq "US"' },
    ]);
    expect(await decide(zone, '8.8.8.8')).toBe('block');
    expect(await decide(zone, '1.1.1.1')).toBe('pass');
  });
});
