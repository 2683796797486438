import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { describe, expect, it } from 'vitest';
import type { PlaceRecord } from '../src/data/place-record.ts';
import { generatePlan } from '../src/generate/generator.ts';
import { type City, gazetteer } from '../src/index.ts';
import { buildChains } from '../src/reference/chains.ts';
import { buildTaxonomy } from '../src/reference/taxonomy.ts';

/**
 * Generated places look local: postcodes checked with postcode-validator, telephone numbers with
 * libphonenumber-js (not the generator's own tables), addresses in the country's language and order, and the
 * same seed gives the same places. In memory: the generator alone (demo-dense.test.ts reads places through the
 * API on both engines).
 */
const taxonomy = buildTaxonomy();
const chains = buildChains(taxonomy);
const PER_CITY = 25;

/** The most populous city of every country with a city of 15,000 people or more. */
function largestCityPerCountry(): City[] {
  const best = new Map<string, City>();
  for (const city of gazetteer().cities) {
    if (city.population < 15_000) continue;
    const current = best.get(city.country);
    if (!current || city.population > current.population) best.set(city.country, city);
  }
  return [...best.values()];
}

function generate(seed: string, cities: readonly City[], count = PER_CITY): PlaceRecord[] {
  const input = { seed, taxonomy, chains, cities: gazetteer().cities };
  return [
    ...generatePlan(
      input,
      cities.map((city) => ({ city, count })),
      1000,
    ),
  ].flat();
}

const byCity = (name: string) => gazetteer().resolve(name)!;

describe('generated places per country', () => {
  const cities = largestCityPerCountry();
  const places = generate('locale', cities);

  it('cover every country with a city of 15,000 people or more', () => {
    expect(cities.length).toBeGreaterThan(200);
    expect(new Set(places.map((p) => p.country)).size).toBe(cities.length);
  });

  it('have postcodes in the country’s format, per postcode-validator', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const p of places) {
      if (p.postcode === null || p.country === null || !postcodeValidatorExistsForCountry(p.country))
        continue;
      checked++;
      if (!postcodeValidator(p.postcode, p.country)) wrong.push(`${p.country} ${p.locality}: ${p.postcode}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(places.length * 0.6);
  });

  it('have telephone numbers valid in the country’s numbering plan, per libphonenumber-js', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const p of places) {
      if (p.tel === null) continue;
      checked++;
      if (!isValidPhoneNumber(p.tel, p.country as never)) wrong.push(`${p.country} ${p.locality}: ${p.tel}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(places.length * 0.6);
  });

  it('give every place of a city the same leading postcode digits, and the largest cities their real ones', () => {
    const sample = generate('locale', [
      byCity('Paris, FR'),
      byCity('Berlin, DE'),
      byCity('Manhattan, US'),
      byCity('Madrid, ES'),
      byCity('Toulouse, FR'),
    ]);
    const codes = (city: string) => sample.filter((p) => p.locality === city).map((p) => p.postcode!);
    for (const code of codes('Paris')) expect(code).toMatch(/^750(0[1-9]|1\d|20)$/);
    for (const code of codes('Berlin')) expect(Number(code)).toBeGreaterThanOrEqual(10115);
    for (const code of codes('Berlin')) expect(Number(code)).toBeLessThanOrEqual(14199);
    for (const code of codes('Manhattan')) expect(code).toMatch(/^10[0-2]\d\d$/);
    for (const code of codes('Madrid')) expect(code).toMatch(/^280\d\d$/);
    for (const code of codes('Toulouse')) expect(code).toMatch(/^31\d{3}$/);
  });

  it('write addresses in the country’s language and order', () => {
    const sample = generate('words', [
      byCity('Paris, FR'),
      byCity('Berlin, DE'),
      byCity('Madrid, ES'),
      byCity('Rome, IT'),
      byCity('Tokyo, JP'),
      byCity('Moscow, RU'),
      byCity('Chicago, US'),
      byCity('Athens, GR'),
    ]);
    const addresses = (country: string) =>
      sample.filter((p) => p.country === country && p.address !== null).map((p) => p.address!);
    // number first, a French street type, no Spanish or Portuguese words
    for (const a of addresses('FR')) {
      expect(a).toMatch(/^\d+ (Rue|Avenue|Boulevard|Place|Impasse|Allée|Quai|Chemin) /);
      expect(a).not.toMatch(/\b(Calle|Rua|das|San|Independencia|Street)\b/);
    }
    // one word with Straße/Weg/Gasse… then the number
    for (const a of addresses('DE'))
      expect(a).toMatch(/^\p{Lu}\p{Ll}+(straße|weg|gasse|platz|allee|ring) \d+$/u);
    for (const a of addresses('ES')) expect(a).toMatch(/^(Calle|Avenida|Paseo|Plaza|Camino) .+ \d+$/);
    for (const a of addresses('IT')) expect(a).toMatch(/^(Via|Viale|Piazza|Corso|Vicolo|Largo) .+, \d+$/);
    // One script beside the gazetteer's Latin town names (issue 41): the quarter romanized, then chōme-block-house.
    for (const a of addresses('JP')) expect(a).toMatch(/^[A-Z][a-z]+ \d+-\d+-\d+$/);
    for (const a of addresses('RU'))
      expect(a).toMatch(/^[\p{Script=Cyrillic}.\- ]+ [\p{Script=Cyrillic} ]+, \d+$/u);
    for (const a of addresses('US')) expect(a).toMatch(/^\d+ [A-Z][a-z]+ (St|Rd|Ave|Ln|Dr|Way|Blvd|Pl)$/);
    for (const a of addresses('GR')) expect(a).toMatch(/^[\p{Script=Greek} ]+ \d+$/u);
  });

  it('name independent places in the local language', () => {
    const sample = generate('names', [byCity('Paris, FR'), byCity('Berlin, DE'), byCity('Tokyo, JP')], 300);
    const bakeries = (country: string) =>
      sample
        .filter((p) => p.country === country && p.fsq_chain_ids.length === 0)
        .filter((p) => p.fsq_category_labels[0]!.endsWith('> Bakery'))
        .map((p) => p.name);
    expect(bakeries('FR').some((n) => n.startsWith('Boulangerie'))).toBe(true);
    expect(bakeries('DE').some((n) => n.includes('Bäckerei'))).toBe(true);
    expect(bakeries('FR').some((n) => /\bBakery\b/.test(n))).toBe(false);
  });

  it('are mostly everyday places: cafés and restaurants common, niche categories rare', () => {
    const sample = generate('mix', [byCity('Paris, FR')], 4000);
    const share = (pattern: RegExp) =>
      sample.filter((p) => pattern.test(p.fsq_category_labels[0]!)).length / sample.length;
    expect(share(/> (Restaurant|Cafe|Coffee Shop|Fast Food)\b/)).toBeGreaterThan(0.15);
    const counts = new Map<string, number>();
    for (const p of sample)
      counts.set(p.fsq_category_labels[0]!, (counts.get(p.fsq_category_labels[0]!) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(top.some(([label]) => /Restaurant|Cafe/.test(label))).toBe(true);
    expect(counts.get('Sports and Recreation > Gaga Pit') ?? 0).toBeLessThan(3);
  });

  it('are denser near the centre than further out', () => {
    const paris = byCity('Paris, FR');
    const sample = generate('density', [paris], 2000);
    const km = (p: PlaceRecord) =>
      Math.hypot(
        (p.latitude - paris.latitude) * 111.2,
        (p.longitude - paris.longitude) * 111.2 * Math.cos((paris.latitude * Math.PI) / 180),
      );
    const within = (r: number) => sample.filter((p) => km(p) <= r).length;
    // places per km² within 2 km vs in the ring 8–10 km
    expect(within(2) / (Math.PI * 4)).toBeGreaterThan(
      (3 * (within(10) - within(8))) / (Math.PI * (100 - 64)),
    );
  });

  it('are the same for the same seed, and differ for another', () => {
    const some = cities.slice(0, 20);
    expect(generate('same', some)).toEqual(generate('same', some));
    expect(generate('other', some)[0]!.fsq_place_id).not.toBe(generate('same', some)[0]!.fsq_place_id);
  });
});
