import { CALLING } from '../generate/addresses.ts';

/**
 * Telephone numbers as search text: a place's number is found by what people type, in E.164 ("+33108507795")
 * or in national form with any spacing ("01 08 50 77 95", "(212) 555-0100"). The place's search text holds
 * both forms' digits; a query that is a telephone number is reduced to its digits (and a leading +).
 */

/** Countries whose national numbers carry no trunk prefix: the national form is the digits after the code. */
const NO_TRUNK_PREFIX = new Set([
  'US',
  'CA',
  'IT',
  'ES',
  'PT',
  'GR',
  'DK',
  'NO',
  'LU',
  'IS',
  'MT',
  'CY',
  'EE',
  'SG',
  'HK',
  'QA',
  'BH',
  'KW',
]);

/** The E.164 number and its national digits, for the search text ("+33108507795 0108507795"). */
export function phoneSearchText(tel: string | null, country: string | null): string | undefined {
  if (!tel || !/^\+\d{6,15}$/.test(tel)) return undefined;
  const code = country ? CALLING[country] : undefined;
  if (!code || !tel.startsWith(`+${code}`)) return tel;
  const national = tel.slice(code.length + 1);
  return `${tel} ${NO_TRUNK_PREFIX.has(country!) ? national : `0${national}`}`;
}

/** A query that is a telephone number, as its digits (keeping a leading +); undefined for any other query. */
export function phoneQuery(query: string): string | undefined {
  const text = query.trim();
  if (!/^\+?[\d\s().\-/]+$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 6 || digits.length > 15) return undefined;
  return text.startsWith('+') ? `+${digits}` : digits;
}
