import { createRequire } from 'node:module';
import { type CountryCode, isSupportedCountry, Metadata, type MetadataJson } from 'libphonenumber-js/core';
import type { City } from '../reference/cities.ts';
import { Random } from './random.ts';

/**
 * Telephone numbers in each country's numbering plan, from libphonenumber-js (MIT; Google's libphonenumber
 * metadata): a number is drawn with the city's area prefix (real ones for the largest cities, e.g. Paris 1,
 * Berlin 30, London 20, Manhattan 212; elsewhere a prefix drawn once per city among the country's valid
 * fixed-line numbers) or the country's mobile prefix, its other digits at random, and kept when the plan's
 * pattern for that kind of line matches (a regular expression test, a microsecond), so that every number is
 * one libphonenumber calls valid. Written in E.164 ("+33142601234").
 */
const require = createRequire(import.meta.url);
const metadataJson = require('libphonenumber-js/metadata.max.json') as MetadataJson;
const metadata = new Metadata(metadataJson);

/** The part of libphonenumber-js's numbering plan object used here (it has no published types). */
interface NumberingPlan {
  callingCode(): string;
  possibleLengths(): number[];
  type(kind: 'FIXED_LINE' | 'MOBILE'): { pattern(): string; possibleLengths(): number[] } | undefined;
}
const examples = require('libphonenumber-js/examples.mobile.json') as Record<string, string>;

/** Area prefixes (national significant number) of some large cities' fixed lines. */
const AREA: Record<string, Record<string, string[]>> = {
  FR: {
    Paris: ['1'],
    Lyon: ['4'],
    Marseille: ['4'],
    Toulouse: ['5'],
    Bordeaux: ['5'],
    Lille: ['3'],
    Nice: ['4'],
  },
  DE: {
    Berlin: ['30'],
    Hamburg: ['40'],
    Munich: ['89'],
    Köln: ['221'],
    'Frankfurt am Main': ['69'],
    Stuttgart: ['711'],
  },
  GB: {
    London: ['20'],
    Manchester: ['161'],
    Birmingham: ['121'],
    Glasgow: ['141'],
    Edinburgh: ['131'],
    Leeds: ['113'],
  },
  US: {
    'New York City': ['212', '718', '646'],
    Manhattan: ['212', '646'],
    Brooklyn: ['718', '347'],
    Queens: ['718', '347'],
    'Los Angeles': ['213', '323', '310'],
    Chicago: ['312', '773'],
    Houston: ['713', '832'],
    'San Francisco': ['415', '628'],
    Seattle: ['206'],
    Boston: ['617'],
    Washington: ['202'],
    Miami: ['305', '786'],
  },
  JP: { Tokyo: ['3'], Osaka: ['6'], Nagoya: ['52'], Sapporo: ['11'], Fukuoka: ['92'], Kyoto: ['75'] },
  IT: { Rome: ['06'], Milan: ['02'], Naples: ['081'], Turin: ['011'], Florence: ['055'] },
  ES: { Madrid: ['91'], Barcelona: ['93'], Valencia: ['96'], Sevilla: ['95'] },
  BR: {
    'São Paulo': ['11'],
    'Rio de Janeiro': ['21'],
    Brasília: ['61'],
    'Belo Horizonte': ['31'],
    Salvador: ['71'],
  },
  NL: { Amsterdam: ['20'], Rotterdam: ['10'], 'The Hague': ['70'], Utrecht: ['30'] },
  AU: { Sydney: ['2'], Melbourne: ['3'], Brisbane: ['7'], Perth: ['8'], Adelaide: ['8'] },
  MX: { 'Mexico City': ['55'], Guadalajara: ['33'], Monterrey: ['81'] },
  AR: { 'Buenos Aires': ['11'] },
  IN: {
    Mumbai: ['22'],
    'New Delhi': ['11'],
    Delhi: ['11'],
    Bengaluru: ['80'],
    Chennai: ['44'],
    Kolkata: ['33'],
  },
  CN: { Beijing: ['10'], Shanghai: ['21'], Guangzhou: ['20'], Shenzhen: ['755'] },
  KR: { Seoul: ['2'], Busan: ['51'] },
  RU: { Moscow: ['495', '499'], 'Saint Petersburg': ['812'] },
  NG: { Lagos: ['1'], Abuja: ['9'] },
  EG: { Cairo: ['2'], Alexandria: ['3'] },
};

interface Plan {
  code: string;
  fixed: RegExp | undefined;
  mobile: RegExp | undefined;
  fixedLengths: number[];
  example: string | undefined;
}

const plans = new Map<string, Plan | null>();

function planOf(country: string): Plan | null {
  if (plans.has(country)) return plans.get(country)!;
  let plan: Plan | null = null;
  if (isSupportedCountry(country as CountryCode, metadataJson)) {
    metadata.selectNumberingPlan(country as CountryCode);
    const numbering = metadata.numberingPlan as unknown as NumberingPlan;
    const regex = (type: 'FIXED_LINE' | 'MOBILE') => {
      const pattern = numbering.type(type)?.pattern();
      return pattern ? new RegExp(`^(?:${pattern})$`) : undefined;
    };
    plan = {
      code: numbering.callingCode(),
      fixed: regex('FIXED_LINE'),
      mobile: regex('MOBILE'),
      fixedLengths: numbering.type('FIXED_LINE')?.possibleLengths() ?? numbering.possibleLengths(),
      example: examples[country],
    };
  }
  plans.set(country, plan);
  return plan;
}

function digits(random: Random, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String.fromCharCode(48 + random.int(10));
  return out;
}

/** A valid number of `pattern` that starts with `prefix` and is `length` long, or undefined after `tries`. */
function draw(
  random: Random,
  pattern: RegExp,
  prefix: string,
  length: number,
  tries: number,
): string | undefined {
  for (let attempt = 0; attempt < tries; attempt++) {
    const candidate = prefix + digits(random, length - prefix.length);
    if (pattern.test(candidate)) return candidate;
  }
  return undefined;
}

/** Lengths to try: the example's first, then the nearest ones, longer before shorter. */
const byNearness = (lengths: readonly number[], to: number) =>
  [...lengths].filter((n) => n >= 6).sort((a, b) => Math.abs(a - to) - Math.abs(b - to) || b - a);

/**
 * Up to `count` valid numbers of a kind of line starting with one of `starts`: their first digits (all but the
 * last four) are the prefixes numbers are made from. Cached: a country's pools are drawn once per process.
 */
const pools = new Map<string, string[]>();

function prefixes(pattern: RegExp, starts: readonly string[], lengths: number[], count: number): string[] {
  const key = `${pattern.source}|${starts.join(',')}|${lengths.join(',')}|${count}`;
  let pool = pools.get(key);
  if (pool) return pool;
  const setup = new Random(key);
  const found = new Set<string>();
  for (const start of starts) {
    for (const length of lengths) {
      for (let i = 0; i < count; i++) {
        const number = draw(setup, pattern, start, length, 200);
        if (number) found.add(number.slice(0, -4));
      }
      if (found.size > 0) break;
    }
  }
  pool = [...found].sort();
  pools.set(key, pool);
  return pool;
}

/**
 * Per city: a function from the place's random stream to a number, or null where the country has no plan.
 * The city's fixed lines share its area prefix: a known one, or one of the country's valid prefixes chosen by
 * the city's id.
 */
export function phonesOf(city: City): (random: Random) => string | null {
  const plan = planOf(city.country);
  if (!plan?.example) return () => null;
  const example = plan.example;
  const lengths = byNearness(plan.fixedLengths, example.length);
  const known = AREA[city.country]?.[city.name];
  let fixed: string[] = [];
  if (plan.fixed && known) fixed = prefixes(plan.fixed, known, lengths, 8);
  else if (plan.fixed) {
    const country = prefixes(plan.fixed, [''], lengths, 64);
    const own = country[(city.id >>> 0) % Math.max(1, country.length)];
    fixed = own ? country.filter((p) => p.slice(0, 3) === own.slice(0, 3)) : [];
  }
  const mobile = plan.mobile ? prefixes(plan.mobile, [example.slice(0, 2)], [example.length], 8) : [];
  return (random) => {
    const useFixed = fixed.length > 0 && (mobile.length === 0 || random.chance(0.75));
    const pool = useFixed ? fixed : mobile;
    const pattern = useFixed ? plan.fixed : plan.mobile;
    if (pool.length === 0 || !pattern) return `+${plan.code}${example}`;
    const prefix = pool[random.int(pool.length)]!;
    return `+${plan.code}${draw(random, pattern, prefix, prefix.length + 4, 20) ?? example}`;
  };
}
