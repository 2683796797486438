import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { City } from '../reference/cities.ts';
import { Geocoder } from './geocoder.ts';
import { placeKey } from './place-key.ts';
import { readGeocoderTable } from './table.ts';

const table = readGeocoderTable();
const near = new Geocoder(table);

/** A place's number in the table is its rank of importance: 0 is the most important place. */
const rank = new Map<number, number>();
const cities: City[] = [];
for (let index = 0; index < table.placeCount; index++) {
  const place = table.place(index);
  rank.set(place.id, index);
  // A name with a comma ("Mianzhu, Deyang, Sichuan") cannot be written as `near` without being read as qualified.
  if (place.population >= 100_000 && !place.name.includes(',')) cities.push(place);
}
const city = fc.constantFrom(...cities);

/** Whether `found` is `city`, or another place bearing its name that ranks above it. */
function isItOrMoreImportant(found: City | undefined, place: City): boolean {
  if (!found) return false;
  if (found.id === place.id) return true;
  const named = table.placesNamed(placeKey(place.name));
  return named.includes(rank.get(found.id)!) && rank.get(found.id)! < rank.get(place.id)!;
}

describe('near over every city of at least 100,000 people', () => {
  it('has thousands of them', () => {
    expect(cities.length).toBeGreaterThan(4000);
  });

  // Exact property: near(name) is the city itself, or another place that bears that name (as its own or an
  // alternate name) and ranks above it in importance (population × capital 4 / regional seat 1.5 /
  // neighbourhood 0.5 × √(1 + alternate names); another's alternate name needs ten times the importance).
  it('resolves a city by its GeoNames name to itself or to a more important place of that name', () => {
    fc.assert(
      fc.property(city, (place) => isItOrMoreImportant(near.resolve(place.name), place)),
      { numRuns: 2000 },
    );
  });

  // Exact property: near("name, CC") is the city itself, or a more important place of that name in the same
  // country (GeoNames has two Springfields of 100,000 people in the US, two Fuzhous in China).
  it('resolves "name, country code" to itself or to a more important place of that name in its country', () => {
    fc.assert(
      fc.property(city, (place) => {
        const found = near.resolve(`${place.name}, ${place.country}`);
        return found?.country === place.country && isItOrMoreImportant(found, place);
      }),
      { numRuns: 2000 },
    );
  });

  it('resolves most of them to themselves, by name and by "name, CC"', () => {
    const byName = cities.filter((place) => near.resolve(place.name)?.id === place.id).length;
    const byCode = cities.filter(
      (place) => near.resolve(`${place.name}, ${place.country}`)?.id === place.id,
    ).length;
    expect(byName / cities.length).toBeGreaterThan(0.95);
    expect(byCode / cities.length).toBeGreaterThan(0.98);
  });

  it('reads a name the same in any case, and with accents and punctuation added or dropped', () => {
    fc.assert(
      fc.property(city, fc.boolean(), (place, upper) => {
        const written = upper ? place.name.toUpperCase() : place.name.normalize('NFD').replace(/\p{M}/gu, '');
        return (
          placeKey(written) !== placeKey(place.name) ||
          near.resolve(written)?.id === near.resolve(place.name)?.id
        );
      }),
    );
  });
});

describe('near over any text', () => {
  it('answers a place or nothing and never throws, on text up to and past the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const found = near.resolve(text);
        return found === undefined || (Number.isFinite(found.latitude) && Number.isFinite(found.longitude));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers nothing for text with a control character, a lone surrogate or U+FFFD', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cities.slice(0, 200).map((place) => place.name)),
        fc.constantFrom('\u0000', '\u0007', '\u001b', '\uD800', '\uDFFF', '\uFFFD'),
        fc.nat(),
        (name, bad, at) => {
          const i = at % (name.length + 1);
          return near.resolve(name.slice(0, i) + bad + name.slice(i)) === undefined;
        },
      ),
    );
  });
});
