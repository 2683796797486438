import type { Chain } from '../reference/chains.ts';
import type { TaxonomyEntry } from '../reference/taxonomy.ts';

/**
 * The brands people search for by name, with the countries where they really operate (ISO 3166-1; from the
 * brands' published store locators and annual reports, rounded to where they have more than a handful of
 * outlets). The name-suggestion-index gives most global brands the whole world ("001") with a few countries
 * excluded, which put the only Starbucks of the demo in the Kerguelen Islands; here a brand whose index entry
 * says only "001" goes where this table says, and nowhere when it is not listed. In the table's order: the
 * dense demo gives each top city places of the first brands that operate in its country.
 */
const MAJOR: readonly [name: string, preset: string, countries: string][] = [
  [
    'Starbucks',
    'amenity/cafe',
    'US CA MX GB IE FR DE AT CH NL BE ES PT IT PL CZ HU RO GR TR DK NO SE FI JP CN KR TW HK SG MY TH ID PH VN IN AE SA QA KW BH OM EG JO LB MA AU NZ BR AR CL CO PE CR GT SV PA KZ ZA',
  ],
  [
    "McDonald's",
    'amenity/fast_food',
    'US CA MX BR AR CL CO PE UY CR PA GT GB IE FR DE AT CH NL BE LU ES PT IT PL CZ SK HU RO BG GR TR DK NO SE FI JP CN KR TW HK SG MY TH ID PH VN IN PK AE SA QA KW BH OM EG JO LB MA IL AU NZ ZA',
  ],
  [
    'KFC',
    'amenity/fast_food',
    'US CA MX BR AR CL CO PE GB IE FR DE AT CH NL BE ES PT IT PL CZ HU RO BG GR TR RU DK NO SE FI JP CN KR TW HK SG MY TH ID PH VN IN PK BD LK AE SA QA KW BH OM EG JO LB MA TN NG KE GH ZA AU NZ KZ UA',
  ],
  [
    'Subway',
    'amenity/fast_food',
    'US CA MX BR AR CL CO PE GB IE FR DE AT NL BE ES PT IT PL CZ FI SE NO DK JP CN KR TW SG MY TH ID PH VN IN PK AE SA QA KW EG AU NZ ZA',
  ],
  [
    'Burger King',
    'amenity/fast_food',
    'US CA MX BR AR CL CO PE GB IE FR DE AT CH NL BE ES PT IT PL CZ HU RO GR TR RU DK NO SE FI JP CN KR TW SG MY TH ID PH IN PK AE SA QA KW EG MA IL NZ ZA',
  ],
  [
    "Domino's",
    'amenity/fast_food',
    'US CA MX BR CO PE GB IE FR DE NL BE ES PT IT PL JP CN KR TW SG MY TH ID IN PK BD AE SA QA KW EG AU NZ ZA NG KE TR',
  ],
  [
    'Pizza Hut',
    'amenity/restaurant',
    'US CA MX BR AR CL CO PE GB IE FR DE NL ES PT PL CZ HU RO TR RU JP CN KR TW HK SG MY TH ID PH VN IN PK BD AE SA QA KW EG MA AU NZ ZA NG KE',
  ],
  ['7-Eleven', 'shop/convenience', 'US CA MX JP KR TW HK TH MY SG PH VN CN AU DK NO SE'],
  [
    'Shell',
    'amenity/fuel',
    'US CA MX BR AR GB IE DE AT CH NL BE LU DK IT PL CZ SK HU BG UA PH MY TH SG IN PK EG TR AU NZ ZA NG CN HK',
  ],
  ['BP', 'amenity/fuel', 'GB DE AT CH NL BE PL ES PT US AU NZ ZA TR EG'],
  ['TotalEnergies', 'amenity/fuel', 'FR BE NL DE LU CH IT ES PT MA TN EG NG KE ZA CM CI SN GH'],
  [
    'Lidl',
    'shop/supermarket',
    'DE AT CH FR BE NL LU ES PT IT PL CZ SK HU RO BG GR HR SI DK SE FI IE GB LT LV EE RS US',
  ],
  ['Carrefour', 'shop/supermarket', 'FR BE ES IT PL RO AR BR MA TN EG AE SA QA KW JO LB GE AM TW'],
  ['Tesco', 'shop/supermarket', 'GB IE CZ SK HU'],
  ['Costa', 'amenity/cafe', 'GB IE PL CN AE SA QA KW EG GR CY TR'],
  ['Tim Hortons', 'amenity/cafe', 'CA US GB ES MX CN PH'],
  ['Pret A Manger', 'amenity/fast_food', 'GB FR US IE NL'],
  ['Oxxo', 'shop/convenience', 'MX CO CL PE BR'],
  ['FamilyMart', 'shop/convenience', 'JP TW CN TH VN PH MY ID'],
  ['Lawson', 'shop/convenience', 'JP CN TH ID PH'],
  ['Boots', 'amenity/pharmacy', 'GB IE'],
  ['Watsons', 'amenity/pharmacy', 'HK SG MY TH PH ID TW CN TR'],
  ['CVS Pharmacy', 'amenity/pharmacy', 'US'],
  ['Walgreens', 'amenity/pharmacy', 'US'],
  [
    'Hilton',
    'tourism/hotel',
    'US CA MX BR GB IE FR DE IT ES NL BE AT CH CZ PL HU TR JP CN KR SG MY TH ID IN AE SA QA EG AU NZ ZA',
  ],
  [
    'Ibis',
    'tourism/hotel',
    'FR DE GB ES IT NL BE CH AT PL CZ HU PT BR MX AR CL CO AU NZ TH SG MY ID IN AE SA QA EG MA TR JP KR',
  ],
  ['Holiday Inn', 'tourism/hotel', 'US CA MX GB DE FR ES IT NL BE CN JP KR TH SG MY ID IN AE AU NZ'],
  [
    'IKEA',
    'shop/furniture',
    'DE AT CH FR BE NL ES PT IT PL CZ SK HU RO DK NO SE FI GB IE US CA MX JP CN KR TW SG MY TH IN AE SA AU TR IL',
  ],
  ['Uniqlo', 'shop/clothes', 'JP CN KR TW HK SG MY TH PH ID VN IN AU US CA GB FR DE ES IT BE NL SE DK'],
  ['Zara', 'shop/clothes', 'ES PT FR IT DE GB NL BE US MX BR AR CL CO JP CN KR AE SA TR PL'],
  ['Walmart', 'shop/department_store', 'US MX CA'],
];

export interface MajorChain {
  chain: Chain;
  countries: ReadonlySet<string>;
}

/** The table's brands as chains of the store (the entry of the brand's own kind), in the table's order. */
export function majorChains(chains: readonly Chain[], taxonomy: readonly TaxonomyEntry[]): MajorChain[] {
  const presets = new Map(taxonomy.map((c) => [c.id, c.presetId]));
  const out: MajorChain[] = [];
  for (const [name, preset, countries] of MAJOR) {
    const chain = chains.find(
      (c) => c.name === name && (presets.get(c.categoryIds[0]!) ?? '').startsWith(preset),
    );
    if (chain) out.push({ chain, countries: new Set(countries.split(' ')) });
  }
  return out;
}

/**
 * The countries a chain operates in: the table's for its brand, the index's own when they name countries, and
 * none when the index says only "the world" and the table does not list the brand.
 */
export function chainCountries(
  chain: Chain,
  major: ReadonlyMap<string, ReadonlySet<string>>,
): ReadonlySet<string> {
  const listed = major.get(chain.name);
  if (listed) return listed;
  return new Set(chain.countries.filter((c) => c !== '001'));
}
