import { type City, gazetteer } from '../reference/cities.ts';
import { townRadiusKm } from './locality.ts';
import type { Random } from './random.ts';

/**
 * Postcodes in each country's format, consistent with the city: every place of a city gets one of that city's
 * codes. No npm package has open postcode data for most countries, so the codes are derived by rule:
 *
 * - the format per country (`FORMATS`: '#' a digit, anything else literal), from the national postal services'
 *   published formats; countries without postcodes (Hong Kong, the Emirates, much of Africa) get none;
 * - exact ranges for the largest cities (`CITY_RANGES`: Paris 75001–75020, Berlin 10115–14199, Manhattan
 *   10001–10282, Tokyo 100–208…);
 * - the leading digits elsewhere: France by département (the INSEE code of the municipality), Spain by
 *   province (the INE code), the US by state (`US_STATES`: each state's ZIP prefixes), Australia by state;
 *   in countries with city ranges the first digit of the nearest such city (German, Japanese, Brazilian,
 *   Italian codes run by region); otherwise a digit per region;
 * - the rest fixed per city (a hash of its GeoNames id), with more codes for larger cities.
 *
 * Great Britain, Ireland, Canada, the Netherlands and Argentina have letters in their codes and rules of their own.
 */
type Format = string | null;

const FORMATS: Record<string, Format> = {
  US: '#####',
  IN: '######',
  BR: '#####-###',
  RU: '######',
  DE: '#####',
  CN: '######',
  JP: '###-####',
  MX: '#####',
  FR: '#####',
  ES: '#####',
  IT: '#####',
  PH: '####',
  TR: '#####',
  ID: '#####',
  PL: '##-###',
  PK: '#####',
  AU: '####',
  UA: '#####',
  DZ: '#####',
  NG: '######',
  TH: '#####',
  IR: '#####-#####',
  TZ: '#####',
  BE: '####',
  ZA: '####',
  MY: '#####',
  PT: '####-###',
  RO: '######',
  CU: '#####',
  KR: '#####',
  EG: '#####',
  HU: '####',
  GR: '### ##',
  PE: '#####',
  SE: '### ##',
  VE: '####',
  BD: '####',
  CL: '#######',
  CZ: '### ##',
  SK: '### ##',
  UZ: '######',
  VN: '######',
  MG: '###',
  MA: '#####',
  IL: '#######',
  CH: '####',
  GT: '#####',
  ET: '####',
  KZ: '######',
  FI: '#####',
  TN: '####',
  IQ: '#####',
  EC: '######',
  MM: '#####',
  SA: '#####',
  AZ: '####',
  BG: '####',
  LK: '#####',
  KE: '#####',
  AF: '####',
  DK: '####',
  BY: '######',
  AT: '####',
  DO: '#####',
  RS: '#####',
  SD: '#####',
  NP: '#####',
  CR: '#####',
  MK: '####',
  LT: 'LT-#####',
  NO: '####',
  NZ: '####',
  SN: '#####',
  UY: '#####',
  ZM: '#####',
  HR: '#####',
  JO: '#####',
  KH: '#####',
  PA: '####',
  HT: '####',
  MZ: '####',
  OM: '###',
  NE: '####',
  PY: '####',
  TJ: '######',
  HN: '#####',
  TM: '######',
  TW: '###',
  AL: '####',
  GE: '####',
  KG: '######',
  BA: '#####',
  PR: '#####',
  XK: '#####',
  MD: '####',
  MN: '#####',
  AM: '####',
  KW: '#####',
  GN: '###',
  NA: '#####',
  RE: '#####',
  LV: 'LV-####',
  MU: '#####',
  PG: '###',
  LA: '#####',
  LR: '####',
  CY: '####',
  EE: '#####',
  GP: '#####',
  SI: '####',
  BH: '###',
  LS: '###',
  ME: '#####',
  MQ: '#####',
  GF: '#####',
  GU: '#####',
  BT: '#####',
  CV: '####',
  IS: '###',
  LU: '####',
  NC: '#####',
  PF: '#####',
  YT: '#####',
  AD: 'AD###',
  GW: '####',
  MC: '#####',
  SG: '######',
  MV: '#####',
  BB: 'BB#####',
  KY: 'KY1-####',
  VC: 'VC####',
};

/** Codes that begin the same way in every city of the country (French overseas, Monaco, Montenegro…). */
const FIXED_LEAD: Record<string, [number, number]> = {
  RE: [97400, 97499],
  GP: [97100, 97199],
  MQ: [97200, 97299],
  GF: [97300, 97399],
  YT: [97600, 97699],
  NC: [98800, 98899],
  PF: [98700, 98799],
  MC: [98000, 98099],
  ME: [81000, 85999],
  GU: [96910, 96932],
  PR: [600, 988],
  PE: [1000, 25999],
  BH: [200, 999],
};

/** [first, last] codes of the largest cities, as numbers in the country's format. */
const CITY_RANGES: Record<string, [string, number, number][]> = {
  FR: [
    ['Paris', 75001, 75020],
    ['Marseille', 13001, 13016],
    ['Lyon', 69001, 69009],
  ],
  DE: [
    ['Berlin', 10115, 14199],
    ['Hamburg', 20095, 22769],
    ['Munich', 80331, 81929],
    ['Köln', 50667, 51149],
    ['Frankfurt am Main', 60306, 60599],
    ['Stuttgart', 70173, 70629],
    ['Düsseldorf', 40210, 40629],
    ['Leipzig', 4103, 4357],
    ['Dortmund', 44135, 44388],
    ['Essen', 45127, 45359],
    ['Bremen', 28195, 28779],
    ['Dresden', 1067, 1328],
    ['Hannover', 30159, 30659],
    ['Nürnberg', 90402, 90491],
    ['Kiel', 24103, 24159],
    ['Rostock', 18055, 18147],
    ['Kassel', 34117, 34134],
    ['Erfurt', 99084, 99099],
    ['Freiburg', 79098, 79117],
    ['Saarbrücken', 66111, 66133],
    ['Magdeburg', 39104, 39130],
    ['Augsburg', 86150, 86199],
  ],
  GB: [],
  US: [
    ['Manhattan', 10001, 10282],
    ['New York City', 10001, 10282],
    ['Brooklyn', 11201, 11256],
    ['Queens', 11354, 11697],
    ['The Bronx', 10451, 10475],
    ['Staten Island', 10301, 10314],
    ['Los Angeles', 90001, 90089],
    ['Chicago', 60601, 60661],
    ['Houston', 77001, 77099],
    ['Phoenix', 85001, 85054],
    ['Philadelphia', 19102, 19154],
    ['San Antonio', 78201, 78266],
    ['San Diego', 92101, 92199],
    ['Dallas', 75201, 75398],
    ['San Jose', 95110, 95139],
    ['Austin', 78701, 78759],
    ['San Francisco', 94102, 94134],
    ['Seattle', 98101, 98199],
    ['Denver', 80202, 80249],
    ['Washington', 20001, 20037],
    ['Boston', 2108, 2137],
    ['Atlanta', 30303, 30363],
    ['Miami', 33125, 33199],
    ['Detroit', 48201, 48243],
    ['Las Vegas', 89101, 89199],
    ['Minneapolis', 55401, 55488],
    ['New Orleans', 70112, 70131],
    ['Baltimore', 21201, 21239],
  ],
  JP: [
    ['Tokyo', 1000000, 2089999],
    ['Yokohama', 2200000, 2479999],
    ['Osaka', 5300000, 5599999],
    ['Nagoya', 4500000, 4689999],
    ['Sapporo', 600000, 659999],
    ['Kobe', 6500000, 6589999],
    ['Kyoto', 6000000, 6169999],
    ['Fukuoka', 8100000, 8199999],
    ['Kawasaki', 2100000, 2169999],
    ['Saitama', 3300000, 3399999],
    ['Hiroshima', 7300000, 7399999],
    ['Sendai', 9800000, 9899999],
  ],
  BR: [
    ['São Paulo', 1000000, 5999999],
    ['Rio de Janeiro', 20000000, 23799999],
    ['Brasília', 70000000, 72799999],
    ['Salvador', 40000000, 42499999],
    ['Fortaleza', 60000000, 61599999],
    ['Belo Horizonte', 30000000, 31999999],
    ['Manaus', 69000000, 69099999],
    ['Curitiba', 80000000, 82999999],
    ['Recife', 50000000, 52999999],
    ['Porto Alegre', 90000000, 91999999],
    ['Belém', 66000000, 66999999],
    ['Goiânia', 74000000, 74899999],
  ],
  IT: [
    ['Rome', 118, 199],
    ['Milan', 20121, 20162],
    ['Naples', 80121, 80147],
    ['Turin', 10121, 10156],
    ['Palermo', 90121, 90151],
    ['Genoa', 16121, 16167],
    ['Bologna', 40121, 40141],
    ['Florence', 50121, 50145],
    ['Bari', 70121, 70132],
    ['Venice', 30121, 30176],
  ],
  ES: [
    ['Madrid', 28001, 28055],
    ['Barcelona', 8001, 8042],
    ['Valencia', 46001, 46026],
    ['Sevilla', 41001, 41020],
  ],
  NL: [
    ['Amsterdam', 1011, 1109],
    ['Rotterdam', 3011, 3089],
    ['The Hague', 2491, 2599],
    ['Utrecht', 3511, 3585],
    ['Eindhoven', 5611, 5658],
    ['Groningen', 9711, 9747],
  ],
  MX: [
    ['Mexico City', 1000, 16999],
    ['Guadalajara', 44100, 44990],
    ['Monterrey', 64000, 64999],
  ],
  RU: [
    ['Moscow', 101000, 129999],
    ['Saint Petersburg', 190000, 199406],
    ['Novosibirsk', 630000, 630133],
    ['Yekaterinburg', 620000, 620149],
  ],
  IN: [
    ['New Delhi', 110001, 110097],
    ['Mumbai', 400001, 400104],
    ['Bengaluru', 560001, 560103],
    ['Chennai', 600001, 600119],
    ['Kolkata', 700001, 700160],
    ['Hyderabad', 500001, 500096],
  ],
  CN: [
    ['Beijing', 100000, 102699],
    ['Shanghai', 200000, 202199],
    ['Guangzhou', 510000, 511499],
    ['Shenzhen', 518000, 518199],
    ['Chengdu', 610000, 611799],
  ],
  AU: [
    ['Sydney', 2000, 2234],
    ['Melbourne', 3000, 3207],
    ['Brisbane', 4000, 4179],
    ['Perth', 6000, 6199],
    ['Adelaide', 5000, 5199],
  ],
  PL: [
    ['Warsaw', 0, 4999],
    ['Kraków', 30001, 31999],
  ],
  TR: [
    ['Istanbul', 34000, 34990],
    ['Ankara', 6000, 6990],
  ],
  KR: [
    ['Seoul', 1000, 8999],
    ['Busan', 46000, 49999],
    ['Incheon', 21000, 23199],
  ],
  NG: [
    ['Lagos', 100001, 102999],
    ['Abuja', 900001, 901101],
    ['Kano', 700001, 700299],
    ['Ibadan', 200001, 200299],
  ],
  EG: [
    ['Cairo', 11311, 11835],
    ['Alexandria', 21500, 21599],
    ['Giza', 12511, 12599],
  ],
  CH: [
    ['Zürich', 8001, 8099],
    ['Geneva', 1201, 1299],
    ['Basel', 4001, 4059],
    ['Bern', 3001, 3030],
    ['Lausanne', 1003, 1018],
    ['Lugano', 6900, 6999],
  ],
  BE: [
    ['Brussels', 1000, 1210],
    ['Antwerpen', 2000, 2660],
    ['Gent', 9000, 9052],
    ['Liège', 4000, 4032],
    ['Charleroi', 6000, 6061],
  ],
  AT: [
    ['Vienna', 1010, 1230],
    ['Graz', 8010, 8063],
    ['Linz', 4020, 4040],
    ['Salzburg', 5020, 5071],
    ['Innsbruck', 6020, 6080],
  ],
  SE: [
    ['Stockholm', 11120, 12999],
    ['Gothenburg', 41101, 41879],
    ['Malmö', 21112, 21774],
  ],
  PT: [
    ['Lisbon', 1000000, 1990999],
    ['Porto', 4000000, 4369999],
  ],
  GR: [
    ['Athens', 10431, 11855],
    ['Thessaloniki', 54006, 56430],
  ],
  CZ: [
    ['Prague', 11000, 19900],
    ['Brno', 60200, 64500],
  ],
  TH: [['Bangkok', 10100, 10900]],
  ID: [
    ['Jakarta', 10110, 14450],
    ['Surabaya', 60111, 60299],
  ],
};

/** Each state's range of ZIP prefixes (the first three digits). */
const US_STATES: Record<string, [number, number]> = {
  AL: [350, 369],
  AK: [995, 999],
  AZ: [850, 865],
  AR: [716, 729],
  CA: [900, 961],
  CO: [800, 816],
  CT: [60, 69],
  DE: [197, 199],
  DC: [200, 205],
  FL: [320, 349],
  GA: [300, 319],
  HI: [967, 968],
  ID: [832, 838],
  IL: [600, 629],
  IN: [460, 479],
  IA: [500, 528],
  KS: [660, 679],
  KY: [400, 427],
  LA: [700, 714],
  ME: [39, 49],
  MD: [206, 219],
  MA: [10, 27],
  MI: [480, 499],
  MN: [550, 567],
  MS: [386, 397],
  MO: [630, 658],
  MT: [590, 599],
  NE: [680, 693],
  NV: [889, 898],
  NH: [30, 38],
  NJ: [70, 89],
  NM: [870, 884],
  NY: [100, 149],
  NC: [270, 289],
  ND: [580, 588],
  OH: [430, 459],
  OK: [730, 749],
  OR: [970, 979],
  PA: [150, 196],
  RI: [28, 29],
  SC: [290, 299],
  SD: [570, 577],
  TN: [370, 385],
  TX: [750, 799],
  UT: [840, 847],
  VT: [50, 59],
  VA: [220, 246],
  WA: [980, 994],
  WV: [247, 268],
  WI: [530, 549],
  WY: [820, 831],
};

/** Australian states' first digit (and the capital territory's 26xx). */
const AU_STATES: Record<string, [number, number]> = {
  NSW: [2000, 2999],
  ACT: [2600, 2619],
  VIC: [3000, 3999],
  QLD: [4000, 4999],
  SA: [5000, 5799],
  WA: [6000, 6999],
  TAS: [7000, 7799],
  NT: [800, 899],
};

/** A well-mixed 32-bit hash of a few integers (deterministic across runs and machines). */
function hash(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const stringHash = (text: string) => {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h, 31) + text.charCodeAt(i);
  return hash(h);
};

const digitsOf = (format: string) => format.split('').filter((c) => c === '#').length;

function render(format: string, code: number): string {
  const text = String(code).padStart(digitsOf(format), '0');
  let i = 0;
  let out = '';
  for (const c of format) out += c === '#' ? text[i++] : c;
  return out;
}

/** The codes of one city: `count` codes from `first`, `step` apart. */
interface Codes {
  first: number;
  count: number;
  step: number;
}

/** How many codes a city has: one for a town, a few dozen for a large city. */
const codesFor = (population: number) =>
  Math.max(1, Math.min(40, Math.round(Math.sqrt(population / 20_000))));

function rangeCodes(first: number, last: number): Codes {
  const count = last - first + 1;
  // Large ranges (Berlin 10115–14199) are sampled at 40 codes so each code recurs, as real ones do.
  return count <= 60 ? { first, count, step: 1 } : { first, count: 40, step: Math.floor(count / 40) };
}

let anchorsByCountry: Map<string, { city: City; first: number; last: number }[]> | undefined;

function anchors(country: string) {
  if (!anchorsByCountry) {
    anchorsByCountry = new Map();
    const all = gazetteer();
    for (const [code, list] of Object.entries(CITY_RANGES)) {
      const found = list.flatMap(([name, first, last]) => {
        const city = all.resolve(`${name}, ${code}`);
        return city ? [{ city, first, last }] : [];
      });
      anchorsByCountry.set(code, found);
    }
  }
  return anchorsByCountry.get(country) ?? [];
}

function nearestAnchor(city: City) {
  let best: { city: City; first: number; last: number } | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const anchor of anchors(city.country)) {
    const d = (anchor.city.latitude - city.latitude) ** 2 + (anchor.city.longitude - city.longitude) ** 2;
    if (d < bestDistance) {
      best = anchor;
      bestDistance = d;
    }
  }
  return best;
}

/** The codes of a city in a country whose format is all digits. */
function numericCodes(city: City, digits: number): Codes {
  const h = hash(city.id);
  const count = codesFor(city.population);
  const size = 10 ** digits;
  const own = anchors(city.country).find((a) => a.city.id === city.id);
  if (own) return rangeCodes(own.first, own.last);
  const fixed = FIXED_LEAD[city.country];
  if (fixed) return { first: fixed[0] + (h % Math.max(1, fixed[1] - fixed[0] - count)), count, step: 1 };

  // The leading part, by region or by the nearest large city.
  let lead: number;
  let leadDigits: number;
  if (city.country === 'FR' && city.municipality) {
    const dept = city.municipality.slice(0, 2).replace(/2[AB]/, '20');
    const big = city.population >= 100_000;
    const step = big ? 100 : 10;
    const first = Number(dept) * 1000 + (big || city.capital ? 0 : ((h % 98) + 1) * 10);
    return { first, count: big ? Math.min(9, count) : 1, step };
  }
  if (city.country === 'ES' && city.municipality) {
    lead = Number(city.municipality.slice(0, 2));
    leadDigits = 2;
  } else if (city.country === 'US' && city.region && US_STATES[city.region]) {
    const [lo, hi] = US_STATES[city.region]!;
    lead = lo + (h % (hi - lo + 1));
    leadDigits = 3;
  } else if (city.country === 'AU' && city.region && AU_STATES[city.region]) {
    const [lo, hi] = AU_STATES[city.region]!;
    return { first: lo + (h % (hi - lo + 1 - count)), count, step: 1 };
  } else {
    const anchor = nearestAnchor(city);
    leadDigits = 1;
    lead = anchor
      ? Math.floor(anchor.first / 10 ** (digits - 1))
      : 1 + (stringHash(`${city.country}/${city.region ?? ''}`) % 9);
    if (city.country === 'ES') {
      lead = 1 + (stringHash(city.region ?? '') % 52);
      leadDigits = 2;
    }
  }
  const restSize = 10 ** (digits - leadDigits);
  const rest = (h >>> 3) % Math.max(1, restSize - count);
  return { first: (lead * restSize + rest) % size, count, step: 1 };
}

const LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
const letter = (random: Random) => LETTERS[random.int(LETTERS.length)]!;

/** Great Britain: the postcode area of the city (nearest large city), its districts, then "digit letter letter". */
const GB_AREAS: [string, string][] = [
  ['London', ''],
  ['Manchester', 'M'],
  ['Birmingham', 'B'],
  ['Liverpool', 'L'],
  ['Leeds', 'LS'],
  ['Glasgow', 'G'],
  ['Edinburgh', 'EH'],
  ['Bristol', 'BS'],
  ['Sheffield', 'S'],
  ['Newcastle upon Tyne', 'NE'],
  ['Nottingham', 'NG'],
  ['Leicester', 'LE'],
  ['Cardiff', 'CF'],
  ['Belfast', 'BT'],
  ['Southampton', 'SO'],
  ['Brighton', 'BN'],
  ['Coventry', 'CV'],
  ['Bradford', 'BD'],
  ['Aberdeen', 'AB'],
  ['Oxford', 'OX'],
  ['Cambridge', 'CB'],
  ['York', 'YO'],
  ['Plymouth', 'PL'],
  ['Reading', 'RG'],
  ['Norwich', 'NR'],
  ['Exeter', 'EX'],
  ['Swansea', 'SA'],
  ['Hull', 'HU'],
  ['Stoke-on-Trent', 'ST'],
  ['Derby', 'DE'],
  ['Dundee', 'DD'],
  ['Inverness', 'IV'],
];
const LONDON = ['EC', 'WC', 'E', 'N', 'NW', 'SE', 'SW', 'W'];

let gbAreas: { city: City; area: string }[] | undefined;

/** London's postcode areas by compass sector from the centre (bearing in degrees, clockwise from north). */
const LONDON_SECTORS: [below: number, area: string][] = [
  [30, 'N'],
  [100, 'E'],
  [180, 'SE'],
  [250, 'SW'],
  [300, 'W'],
  [330, 'NW'],
  [360, 'N'],
];

/** A London area and district by position: EC and WC within 1.5 km of the centre, then by sector and distance. */
function londonDistrict(city: City, spot: Spot): { area: string; district: number } {
  const cosLat = Math.cos((city.latitude * Math.PI) / 180);
  const dy = (spot.latitude - city.latitude) * 111.2;
  const dx = (spot.longitude - city.longitude) * 111.2 * cosLat;
  const km = Math.sqrt(dx * dx + dy * dy);
  if (km < 1.5) return { area: dx > 0 ? 'EC' : 'WC', district: 1 + Math.min(3, Math.floor(km * 2)) };
  const bearing = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
  const area = LONDON_SECTORS.find(([below]) => bearing < below)![1];
  return { area, district: 1 + Math.min(19, Math.floor((km - 1.5) * 1.5)) };
}

function gbPostcode(random: Random, city: City, spot: Spot): string {
  gbAreas ??= GB_AREAS.flatMap(([name, area]) => {
    const found = gazetteer().resolve(`${name}, GB`);
    return found ? [{ city: found, area }] : [];
  });
  let best = gbAreas[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const a of gbAreas) {
    const d = (a.city.latitude - city.latitude) ** 2 + (a.city.longitude - city.longitude) ** 2;
    if (d < bestDistance) {
      best = a;
      bestDistance = d;
    }
  }
  const h = hash(city.id);
  const london = best.area === '' && best.city.id === city.id;
  const own = best.city.id === city.id;
  const { area, district } = london
    ? londonDistrict(city, spot)
    : {
        area: best.area === '' ? LONDON[h % LONDON.length]! : best.area,
        district: own ? 1 + districtOf(city, 20, spot) : 1 + (h % 40),
      };
  const inner = area === 'EC' || area === 'WC' ? `${district % 4 || 1}${'ABMNPRVW'[h % 8]}` : district;
  return `${area}${inner} ${random.int(10)}${letter(random)}${letter(random)}`;
}

const CA_PROVINCE: Record<string, string> = {
  NL: 'A',
  NS: 'B',
  PE: 'C',
  NB: 'E',
  QC: 'H',
  ON: 'M',
  MB: 'R',
  SK: 'S',
  AB: 'T',
  BC: 'V',
  NT: 'X',
  NU: 'X',
  YT: 'Y',
};
const CA_LETTERS = 'ABCEGHJKLMNPRSTVWXYZ';

function caPostcode(random: Random, city: City): string {
  const h = hash(city.id);
  let first = CA_PROVINCE[city.region ?? ''] ?? 'K';
  if (first === 'M' && city.name !== 'Toronto') first = 'KLNP'[h % 4]!;
  if (first === 'H' && city.name !== 'Montréal') first = 'GJ'[h % 2]!;
  const second = city.population > 500_000 ? random.int(10) : h % 10;
  const third = CA_LETTERS[(city.population > 500_000 ? random.int(20) : h >>> 4) % 20];
  return `${first}${second}${third} ${random.int(10)}${CA_LETTERS[random.int(20)]}${random.int(10)}`;
}

const EIRCODE = 'ACDEFHKNPRTVWXY';
const AR_PROVINCE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Where a place is: its position, for the postcode district it lies in. */
export interface Spot {
  latitude: number;
  longitude: number;
}

/**
 * Which of a city's `count` postcode districts a point lies in, so that neighbours share a code and a code
 * covers one part of the city: the districts are the cells of rings of equal area around the centre, each
 * ring cut into equal sectors, numbered from the centre outwards (Paris's 20 arrondissements come out as 75001–
 * 75004 in the centre, 75017–75020 at the edge, as they spiral there). Points beyond the city's radius are in
 * its outer ring.
 */
export function districtOf(city: City, count: number, spot: Spot): number {
  if (count <= 1) return 0;
  const rings = Math.ceil(Math.sqrt(count));
  const perRing = Math.ceil(count / rings);
  const cosLat = Math.max(0.05, Math.cos((city.latitude * Math.PI) / 180));
  const dy = (spot.latitude - city.latitude) * 111.2;
  const dx = (spot.longitude - city.longitude) * 111.2 * cosLat;
  const share = Math.min(0.999, (dx * dx + dy * dy) / townRadiusKm(city.population) ** 2);
  const ring = Math.floor(share * rings);
  const angle = (Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI);
  const sector = Math.min(perRing - 1, Math.floor(angle * perRing));
  return Math.min(count - 1, ring * perRing + sector);
}

/**
 * Per city: a function from the place's random stream and position to a postcode (null where the country has
 * none).
 */
export function postcodesOf(city: City): (random: Random, spot: Spot) => string | null {
  const country = city.country;
  if (country === 'GB') return (random, spot) => gbPostcode(random, city, spot);
  if (country === 'CA') return (random) => caPostcode(random, city);
  if (country === 'IE') {
    // Eircodes: a routing key (Dublin D01–D24, elsewhere one per town), then four characters of its own set
    const h = hash(city.id);
    const key = city.name === 'Dublin' ? null : `${EIRCODE[h % 15]}${10 + ((h >>> 4) % 90)}`;
    const char = (random: Random) => (random.chance(0.5) ? String(random.int(10)) : EIRCODE[random.int(15)]);
    return (random) =>
      `${key ?? `D${String(1 + random.int(24)).padStart(2, '0')}`} ${EIRCODE[random.int(15)]}${char(random)}${char(random)}${char(random)}`;
  }
  if (country === 'AR') {
    const province =
      city.name === 'Buenos Aires' ? 'C' : AR_PROVINCE_LETTERS[stringHash(city.region ?? '') % 24]!;
    const codes = numericCodes(city, 4);
    return (random, spot) =>
      `${province}${String(Math.max(1000, codes.first + districtOf(city, codes.count, spot))).padStart(4, '0')}${letter(random)}${letter(random)}${letter(random)}`;
  }
  if (country === 'NL') {
    const codes = numericCodes(city, 4);
    return (random, spot) => {
      const number = Math.max(1000, codes.first + districtOf(city, codes.count, spot) * codes.step);
      let pair = `${letter(random)}${letter(random)}`;
      if (pair === 'SA' || pair === 'SD' || pair === 'SS') pair = 'AB';
      return `${number} ${pair}`;
    };
  }
  if (country === 'SV') {
    const h = hash(city.id);
    return () => `CP ${1 + (h % 3)}${1 + ((h >>> 2) % 7)}${(h >>> 5) % 3}${(h >>> 7) % 10}`;
  }
  const format = FORMATS[country];
  if (!format) return () => null;
  const digits = digitsOf(format);
  const codes = numericCodes(city, digits);
  const max = 10 ** digits - 1;
  const leadMin = FIXED_LEAD[country] || CITY_RANGES[country] || country === 'FR' ? 0 : 10 ** (digits - 1);
  return (_random, spot) => {
    const district = districtOf(city, codes.count, spot);
    const code = Math.min(max, Math.max(leadMin, codes.first + district * codes.step));
    return render(format, code);
  };
}
