import { describe, expect, it } from 'vitest';
import type { PlaceRecord } from '../src/data/place-record.ts';
import { DEMO_COUNT, demoPlan } from '../src/demo.ts';
import { generatePlan } from '../src/generate/generator.ts';
import { related } from '../src/generate/names.ts';
import { gazetteer } from '../src/index.ts';
import { derivedTips } from '../src/media/tips.ts';
import { buildChains } from '../src/reference/chains.ts';
import { buildTaxonomy } from '../src/reference/taxonomy.ts';

/**
 * The demo data's locale rules (issue 41 §3), on the default demo's plan for a dozen cities in as many
 * countries, made in memory: addresses in each country's format and vocabulary, names that fit their
 * category, postcodes and localities that agree with the position, tips that never repeat, chains only where
 * the brand operates.
 */
const taxonomy = buildTaxonomy();
const chains = buildChains(taxonomy);
const byPreset = new Map(taxonomy.map((c) => [c.id, c]));
const CITIES = [
  'Rome, IT',
  'Paris, FR',
  'Berlin, DE',
  'London, GB',
  'Tokyo, JP',
  'New York City, US',
  'Lagos, NG',
  'Sydney, AU',
  'Mexico City, MX',
  'Madrid, ES',
  'Vatican City, VA',
  'Kolkata, IN',
];
const cities = CITIES.map((name) => gazetteer().resolve(name)!);
const wanted = new Set(cities.map((c) => c.id));
const plan = demoPlan(DEMO_COUNT).filter((p) => wanted.has(p.city.id));
const places: PlaceRecord[] = [
  ...generatePlan({ seed: 'demo-locale', taxonomy, chains, cities: gazetteer().cities }, plan, 1000),
].flat();

function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const cos = Math.cos((a.latitude * Math.PI) / 180);
  return Math.hypot((a.latitude - b.latitude) * 111.2, (a.longitude - b.longitude) * 111.2 * cos);
}
const city = (name: string) => gazetteer().resolve(name)!;
const inCountry = (country: string) => places.filter((p) => p.country === country && p.address !== null);

describe('the demo data’s locale rules', () => {
  it('covers every city of the sample', () => {
    expect(plan.length).toBe(cities.length);
    expect(places.length).toBeGreaterThan(2000);
  });

  it('writes the house number after the street in most of Europe and Latin America', () => {
    for (const country of ['IT', 'DE', 'ES', 'MX']) {
      const addresses = inCountry(country).map((p) => p.address!);
      expect(addresses.length, country).toBeGreaterThan(20);
      for (const a of addresses) expect(a, country).toMatch(/\D \d+$|, \d+$/);
    }
  });

  it('keeps American street words (Dr, Blvd, Jefferson) and four-digit house numbers to the US', () => {
    for (const country of ['GB', 'NG', 'AU', 'IN']) {
      const addresses = inCountry(country).map((p) => p.address!);
      expect(addresses.length, country).toBeGreaterThan(20);
      for (const a of addresses) {
        expect(a, country).not.toMatch(/\b(Dr|Blvd|Jefferson|Washington|Lincoln|Franklin)\b/);
        expect(a, country).not.toMatch(/^\d{4,} /);
      }
    }
    expect(inCountry('US').some((p) => /^\d{4} /.test(p.address!))).toBe(true);
  });

  it('writes Japanese addresses in one script', () => {
    const addresses = inCountry('JP').map((p) => p.address!);
    expect(addresses.length).toBeGreaterThan(20);
    for (const a of addresses) expect(a).toMatch(/^[A-Z][a-z]+ \d+-\d+-\d+$/);
  });

  it('names places after their kind unless they are eateries, and joins only related categories', () => {
    const pharmacies = (country: string) =>
      places.filter(
        (p) =>
          p.country === country &&
          p.fsq_chain_ids.length === 0 &&
          byPreset.get(p.fsq_category_ids[0]!)?.presetId === 'amenity/pharmacy',
      );
    expect(pharmacies('DE').length).toBeGreaterThan(3);
    for (const p of pharmacies('DE')) expect(p.name).toMatch(/Apotheke/);
    for (const p of pharmacies('IT')) expect(p.name).toMatch(/Farmacia/);
    for (const p of places) {
      const presets = p.fsq_category_ids.map((id) => byPreset.get(id)!.presetId);
      if (presets.length === 2) expect(related(presets[0]!, presets[1]!), `${p.name}: ${presets}`).toBe(true);
      const top = byPreset.get(p.fsq_category_ids[0]!)!.path[0]!.name;
      if (p.fsq_chain_ids.length > 0 || top === 'Dining and Drinking') continue;
      // No eatery-style name on a shop, a pharmacy or a museum.
      expect(p.name, presets[0]).not.toMatch(
        /^(Da |Zum |The (Golden|Blue|Red|Little|Old|Royal|Green|Corner) |Chez |El |Il |Le (Petit|Grand|Bon|Vieux|Beau) )/,
      );
    }
  });

  it('gives Paris postcodes by arrondissement position: the centre 75001–75004, never at the edge', () => {
    const paris = city('Paris, FR');
    const located = places.filter((p) => p.locality === 'Paris' && p.postcode);
    expect(located.length).toBeGreaterThan(50);
    for (const p of located) {
      const d = km(p, paris);
      if (d < 1) expect(p.postcode).toMatch(/^7500[1-4]$/);
      if (d > 4) expect(p.postcode).not.toMatch(/^7500[1-4]$/);
    }
    // Neighbours share a code: places 50 m apart mostly have the same one.
    let pairs = 0;
    let same = 0;
    for (let i = 0; i < located.length; i++)
      for (let j = i + 1; j < located.length; j++)
        if (km(located[i]!, located[j]!) < 0.05) {
          pairs++;
          if (located[i]!.postcode === located[j]!.postcode) same++;
        }
    if (pairs > 5) expect(same / pairs).toBeGreaterThan(0.8);
  });

  it('names the locality the town the point is in: nothing 2 km from St Peter’s is in Vatican City', () => {
    const vatican = city('Vatican City, VA');
    const rome = city('Rome, IT');
    for (const p of places) {
      if (p.locality === 'Vatican City') expect(km(p, vatican)).toBeLessThan(1.2);
      if (km(p, rome) < 5 && km(p, vatican) > 2) expect(p.locality).toBe('Rome');
    }
  });

  it('never repeats a tip within a place', () => {
    const popular = places.filter((p) => (p.popularity ?? 0) > 0.8).slice(0, 200);
    expect(popular.length).toBeGreaterThan(20);
    for (const p of popular) {
      const texts = derivedTips(p, 'http://127.0.0.1').map((t) => t.text);
      expect(texts.length).toBeGreaterThan(10);
      expect(new Set(texts).size, p.name).toBe(texts.length);
    }
  });

  it('puts chains where the brand operates: Starbucks in London, Tokyo and New York, not in Lagos', () => {
    const starbucks = places.filter((p) => p.name === 'Starbucks');
    const countries = new Set(starbucks.map((p) => p.country));
    for (const country of ['GB', 'JP', 'US']) expect(countries.has(country), country).toBe(true);
    expect(countries.has('NG')).toBe(false);
    expect(countries.has('VA')).toBe(false);
  });
});
