// @geoLookup: looks the input (an IP address, usually REMOTE_ADDR) up in the geolocation database
// the caller passes with the request (WafRequest.geoLookup), fills the GEO collection and matches
// when the address was found. Without a database it never matches, as ModSecurity without
// SecGeoLookupDb.
// Example: SecRule REMOTE_ADDR "@geoLookup" "chain,id:1,deny"
//          SecRule GEO:COUNTRY_CODE "@streq T1"
import type { OperatorDef } from '../types.ts';

export const geoLookup: OperatorDef = {
  name: 'geoLookup',
  compile: () => (tx, input) => {
    const found = tx.geoLookup?.(input);
    tx.geo.clear();
    if (!found) return false;
    // ModSecurity's GEO keys (apache2/msc_geo.c).
    const fields: [string, string | number | undefined][] = [
      ['COUNTRY_CODE', found.countryCode],
      ['COUNTRY_CODE3', found.countryCode3],
      ['COUNTRY_NAME', found.countryName],
      ['COUNTRY_CONTINENT', found.continent],
      ['REGION', found.region],
      ['CITY', found.city],
      ['POSTAL_CODE', found.postalCode],
      ['LATITUDE', found.latitude],
      ['LONGITUDE', found.longitude],
    ];
    for (const [key, value] of fields)
      if (value !== undefined && value !== '') tx.geo.add(key, String(value));
    return true;
  },
};
