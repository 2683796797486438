import { createRequire } from 'node:module';

// @photostructure/tz-lookup (CC0): point → IANA zone, from a compact grid shipped in the package.
const lookup = createRequire(import.meta.url)('@photostructure/tz-lookup') as (
  lat: number,
  lon: number,
) => string;

/** The IANA time zone at a point, or null where the lookup has none. */
export function timeZoneAt(latitude: number, longitude: number): string | null {
  try {
    return lookup(latitude, longitude);
  } catch {
    return null;
  }
}
