import type { Random } from './random.ts';
import { STREETS, STREETS_DE, STREETS_ROMANCE } from './words.ts';

/** Street addresses, postcodes and telephone numbers in each country's usual shape. */
const NUMBER_AFTER = new Set([
  'DE',
  'AT',
  'CH',
  'NL',
  'BE',
  'DK',
  'SE',
  'NO',
  'FI',
  'PL',
  'CZ',
  'SK',
  'HU',
  'IT',
  'ES',
  'PT',
  'BR',
  'AR',
  'MX',
  'CL',
  'CO',
  'PE',
  'HR',
  'SI',
  'EE',
  'LV',
  'LT',
]);
const ROMANCE = new Set(['FR', 'BE', 'ES', 'IT', 'PT', 'BR', 'AR', 'MX', 'CL', 'CO', 'PE', 'VE', 'EC', 'UY']);
const GERMANIC = new Set(['DE', 'AT', 'CH']);

const ROMANCE_TYPE: Record<string, string> = { FR: 'Rue', BE: 'Rue', IT: 'Via', PT: 'Rua', BR: 'Rua' };

export function streetAddress(random: Random, country: string): string {
  const number = random.chance(0.7) ? random.between(1, 199) : random.between(200, 4999);
  if (GERMANIC.has(country)) {
    const base = random.pick(STREETS_DE);
    return `${base}${random.pick(['straße', 'weg', 'gasse', 'platz', 'allee'])} ${number}`;
  }
  if (ROMANCE.has(country)) {
    const type = ROMANCE_TYPE[country] ?? random.pick(['Calle', 'Avenida']);
    const street = `${type} ${random.pick(STREETS_ROMANCE)}`;
    return country === 'FR' ? `${number} ${street}` : `${street} ${number}`;
  }
  const street = `${random.pick(STREETS)} ${random.pick(['St', 'Ave', 'Rd', 'Blvd', 'Ln', 'Dr', 'Way'])}`;
  return NUMBER_AFTER.has(country) ? `${street} ${number}` : `${number} ${street}`;
}

const digits = (random: Random, n: number) => {
  let out = '';
  for (let i = 0; i < n; i++) out += String(random.int(10));
  return out;
};

const LETTERS = 'ABCDEFGHJKLMNPRSTUWXYZ';

export function postcode(random: Random, country: string): string | null {
  switch (country) {
    case 'US':
    case 'DE':
    case 'FR':
    case 'IT':
    case 'ES':
    case 'MX':
    case 'FI':
    case 'MY':
    case 'TH':
    case 'TR':
    case 'UA':
    case 'KR':
      return `${random.between(1, 9)}${digits(random, 4)}`;
    case 'GB': {
      const area =
        LETTERS[random.int(LETTERS.length)]! +
        (random.chance(0.5) ? LETTERS[random.int(LETTERS.length)]! : '');
      return `${area}${random.between(1, 20)} ${random.int(10)}${LETTERS[random.int(LETTERS.length)]}${LETTERS[random.int(LETTERS.length)]}`;
    }
    case 'CA':
      return `${LETTERS[random.int(LETTERS.length)]}${random.int(10)}${LETTERS[random.int(LETTERS.length)]} ${random.int(10)}${LETTERS[random.int(LETTERS.length)]}${random.int(10)}`;
    case 'NL':
      return `${random.between(1, 9)}${digits(random, 3)} ${LETTERS[random.int(LETTERS.length)]}${LETTERS[random.int(LETTERS.length)]}`;
    case 'JP':
      return `${digits(random, 3)}-${digits(random, 4)}`;
    case 'BR':
      return `${digits(random, 5)}-${digits(random, 3)}`;
    case 'PL':
      return `${digits(random, 2)}-${digits(random, 3)}`;
    case 'IN':
    case 'CN':
    case 'RU':
    case 'SG':
      return `${random.between(1, 9)}${digits(random, 5)}`;
    case 'AU':
    case 'AT':
    case 'BE':
    case 'CH':
    case 'DK':
    case 'NO':
    case 'PH':
    case 'ZA':
      return `${random.between(1, 9)}${digits(random, 3)}`;
    default:
      return random.chance(0.5) ? `${random.between(1, 9)}${digits(random, 4)}` : null;
  }
}

/** Country calling codes of the countries with most cities; elsewhere places get no number. */
export const CALLING: Record<string, string> = {
  US: '1',
  CA: '1',
  MX: '52',
  BR: '55',
  AR: '54',
  CO: '57',
  CL: '56',
  PE: '51',
  GB: '44',
  IE: '353',
  FR: '33',
  DE: '49',
  AT: '43',
  CH: '41',
  IT: '39',
  ES: '34',
  PT: '351',
  NL: '31',
  BE: '32',
  DK: '45',
  SE: '46',
  NO: '47',
  FI: '358',
  PL: '48',
  CZ: '420',
  HU: '36',
  RO: '40',
  GR: '30',
  TR: '90',
  UA: '380',
  RU: '7',
  IN: '91',
  PK: '92',
  BD: '880',
  CN: '86',
  JP: '81',
  KR: '82',
  PH: '63',
  ID: '62',
  MY: '60',
  TH: '66',
  VN: '84',
  SG: '65',
  AU: '61',
  NZ: '64',
  ZA: '27',
  NG: '234',
  EG: '20',
  KE: '254',
  MA: '212',
  IR: '98',
  SA: '966',
  AE: '971',
  IL: '972',
};

/** A number in E.164 form, "+4930123456789". */
export function telephone(random: Random, country: string): string | null {
  const code = CALLING[country];
  if (!code) return null;
  return `+${code}${random.between(1, 9)}${digits(random, code === '1' ? 9 : 8)}`;
}
