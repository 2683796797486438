// GEO: the location of an address, filled by @geoLookup (COUNTRY_CODE, COUNTRY_CONTINENT, …).
// Example: SecRule GEO:COUNTRY_CODE "@pm T1 T2" "id:1,deny"
import { collection } from './define.ts';

export const GEO = collection('GEO', (tx) => tx.geo, true);
