import { describe, expect, it } from 'vitest';
import type { GeoLookup } from '../engine/request-data.ts';
import { loadRules } from '../loader.ts';

// @geoLookup with the database passed in by the caller (the edge passes its IP database).
const table: Record<string, ReturnType<GeoLookup>> = {
  '192.0.2.10': { countryCode: 'T1', continent: 'T1' },
  '198.51.100.7': { countryCode: 'FR', countryName: 'France', continent: 'EU', latitude: 48.85 },
};
const lookup: GeoLookup = (address) => table[address];

const waf = loadRules(`
SecRuleEngine On
SecRule REMOTE_ADDR "@geoLookup" "id:1,phase:1,chain,deny,status:403,msg:'country'"
  SecRule GEO:COUNTRY_CODE "@within T1 T2"
SecRule REMOTE_ADDR "@geoLookup" "id:2,phase:1,chain,pass,log,msg:'continent %{GEO.COUNTRY_CONTINENT}'"
  SecRule GEO:COUNTRY_CONTINENT "@streq EU" "setvar:tx.eu=1"
SecRule REMOTE_ADDR "!@geoLookup" "id:3,phase:1,pass,log,msg:'unknown address'"
`);

const evaluate = (remoteAddr: string, geo: GeoLookup | null = lookup) =>
  waf.evaluate({ method: 'GET', uri: '/', headers: [], remoteAddr, ...(geo ? { geoLookup: geo } : {}) });

describe('@geoLookup', () => {
  it('fills GEO from the database passed in, so rules can decide by country and continent', () => {
    expect(evaluate('192.0.2.10').decision).toBe('block');
    const fr = evaluate('198.51.100.7');
    expect(fr.decision).toBe('allow');
    expect(fr.matchedRules.map((m) => m.id)).toEqual([2]);
    expect(fr.matchedRules[0]?.message).toBe('continent EU');
  });

  it('does not match an address the database does not know, nor any address without a database', () => {
    expect(evaluate('203.0.113.1').matchedRules.map((m) => m.id)).toEqual([3]);
    expect(evaluate('192.0.2.10', null).decision).toBe('allow');
    expect(evaluate('not an address').matchedRules.map((m) => m.id)).toEqual([3]);
  });
});
