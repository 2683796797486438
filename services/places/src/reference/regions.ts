/** The abbreviations Canadians and Australians write after a city, by GeoNames' first-level region code. */
const ABBREVIATIONS: Record<string, Record<string, string>> = {
  CA: {
    '01': 'AB',
    '02': 'BC',
    '03': 'MB',
    '04': 'NB',
    '05': 'NL',
    '07': 'NS',
    '08': 'ON',
    '09': 'PE',
    '10': 'QC',
    '11': 'SK',
    '12': 'YT',
    '13': 'NT',
    '14': 'NU',
  },
  AU: {
    '01': 'ACT',
    '02': 'NSW',
    '03': 'NT',
    '04': 'QLD',
    '05': 'SA',
    '06': 'TAS',
    '07': 'VIC',
    '08': 'WA',
  },
};

/**
 * A place's region as the gazetteer (cities.ts) and the geocoder's table write it: the postal abbreviation in the US, Canada
 * and Australia, the region's name elsewhere; and the region's name.
 */
export function regionOf(
  country: string,
  admin1: string,
  admin1Name: string | undefined,
): { region: string | null; regionName: string | null } {
  const regionName = admin1Name ?? null;
  if (country === 'US' && /^[A-Z]{2}$/.test(admin1)) return { region: admin1, regionName };
  return { region: ABBREVIATIONS[country]?.[admin1] ?? regionName, regionName };
}
