import { describe, expect, it } from 'vitest';
import { gazetteer } from '../reference/cities.ts';
import { geocoder } from './geocoder.ts';

const near = geocoder(gazetteer());

/** "Name, region, CC" of what `text` resolves to, or undefined. */
function resolved(text: string): string | undefined {
  const city = near.resolve(text);
  return city ? `${city.name}, ${city.region}, ${city.country}` : undefined;
}

describe('near as a geocoder', () => {
  it.each([
    ['New York, NY', 'New York City, NY, US'],
    ['Washington, DC', 'Washington, DC, US'],
    ['Washington D.C.', 'Washington, DC, US'],
    ['London, UK', 'London, England, GB'],
    ['London, GB', 'London, England, GB'],
    ['München', 'Munich, Bavaria, DE'],
    ['Wien', 'Vienna, Vienna, AT'],
    ['Lisboa', 'Lisbon, Lisbon, PT'],
    ['Praha', 'Prague, Prague, CZ'],
    ['Firenze', 'Florence, Tuscany, IT'],
    ['東京', 'Tokyo, Tokyo, JP'],
    ['Москва', 'Moscow, Moscow, RU'],
    ['Ciudad de México', 'Mexico City, Mexico City, MX'],
  ])('resolves %s, which was a 400', (text, place) => {
    expect(resolved(text)).toBe(place);
  });

  it('takes the likeliest place of a name, and the one its qualifier names', () => {
    expect(resolved('Roma')).toBe('Rome, Lazio, IT');
    expect(resolved('Rome')).toBe('Rome, Lazio, IT');
    expect(resolved('Rome, GA')).toBe('Rome, GA, US');
    expect(resolved('Rome, Italy')).toBe('Rome, Lazio, IT');
    expect(resolved('Washington')).toBe('Washington, DC, US');
    expect(resolved('Washington, England')).toBe('Washington, England, GB');
    expect(resolved('Portland, OR')).toBe('Portland, OR, US');
    expect(resolved('Portland, ME')).toBe('Portland, ME, US');
    expect(resolved('Vancouver')).toBe('Vancouver, BC, CA');
    expect(resolved('Vancouver, WA')).toBe('Vancouver, WA, US');
    expect(resolved('London, ON')).toBe('London, ON, CA');
    expect(resolved('Paris, TX')).toBe('Paris, TX, US');
  });

  it('knows the English, native and former names of cities, in any case and with or without accents', () => {
    for (const [names, place] of [
      [['Munich', 'MÜNCHEN', 'munchen', 'Muenchen', 'Мюнхен'], 'Munich, Bavaria, DE'],
      [['Vienna', 'wien'], 'Vienna, Vienna, AT'],
      [['Prague', 'Prag'], 'Prague, Prague, CZ'],
      [['Tokyo', 'TOKYO', 'Tōkyō'], 'Tokyo, Tokyo, JP'],
      [['Moscow', 'Moskva', 'Moscou'], 'Moscow, Moscow, RU'],
      [['Mexico City', 'Ciudad de Mexico'], 'Mexico City, Mexico City, MX'],
      [['Bombay', 'मुंबई', 'Mumbai'], 'Mumbai, Maharashtra, IN'],
      [['Cologne', 'Köln', 'koln'], 'Köln, North Rhine-Westphalia, DE'],
    ] as const) {
      for (const name of names) expect(resolved(name), name).toBe(place);
    }
  });

  it('reads countries by code, English and native name, and qualifiers without a comma', () => {
    for (const text of [
      'München, DE',
      'München, DEU',
      'Munich, Germany',
      'München, Deutschland',
      'Munich Germany',
    ])
      expect(resolved(text), text).toBe('Munich, Bavaria, DE');
    expect(resolved('東京, 日本')).toBe('Tokyo, Tokyo, JP');
    expect(resolved('Springfield IL')).toBe('Springfield, IL, US');
    expect(resolved('New York, NY, USA')).toBe('New York City, NY, US');
    expect(resolved('Paris, Germany')).toBeUndefined();
  });

  it('finds neighbourhoods and districts of the largest cities that GeoNames lists', () => {
    expect(resolved('Brooklyn')).toBe('Brooklyn, NY, US');
    expect(resolved('Kreuzberg')).toBe('Kreuzberg, State of Berlin, DE');
    expect(resolved('Harlem')).toMatch(/^Harlem, NY, US$/);
    expect(resolved('Canary Wharf')).toMatch(/, England, GB$/);
    expect(resolved('Shibuya')).toBe('Shibuya, Tokyo, JP');
    expect(resolved('Trastevere')).toBe('Trastevere, Lazio, IT');
    expect(resolved('Soho, UK')).toBe('Soho, England, GB');
  });

  it('asks the gazetteer for towns the table leaves out, with country names as codes', () => {
    expect(resolved('Paide')).toBe('Paide, Järvamaa, EE');
    expect(resolved('Paide, Estonia')).toBe('Paide, Järvamaa, EE');
  });

  it('resolves nothing for text that names no place, and for hostile text', () => {
    for (const text of [
      'xyzzy',
      'Paris, Atlantis',
      '',
      ' , ',
      'Paris,',
      'Par\u0000is',
      'Paris\uFFFD',
      'Paris\uD800',
      'a,b,c,d,e',
      'Paris '.repeat(40),
      ',,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,',
    ]) {
      expect(near.resolve(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
