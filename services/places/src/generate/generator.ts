import type { HoursEntry } from '../data/hours.ts';
import { type PlaceRecord, placemakerUrl } from '../data/place-record.ts';
import type { Chain } from '../reference/chains.ts';
import type { City } from '../reference/cities.ts';
import type { TaxonomyEntry } from '../reference/taxonomy.ts';
import { timeZoneAt } from '../reference/time-zone.ts';
import { postcode, streetAddress, telephone } from './addresses.ts';
import { Random, WeightedPicker } from './random.ts';
import { ADJECTIVES, NOUNS, SURNAMES } from './words.ts';

/**
 * Realistic synthetic places: around real cities (weighted by population), in real categories (weighted
 * towards what towns have most of), a quarter of those that can be under a real brand of that country,
 * with addresses, hours, prices, ratings and popularity. Deterministic: one seed, one sequence of places.
 *
 * The places come out in space order, so that the table is stored that way and a search around a point reads
 * a few hundred neighbouring pages rather than one page per place: the city of every place is drawn first
 * (from a stream of its own), then the places are made city by city, cities ordered by band of latitude and
 * longitude, and each batch is ordered by band of 0.1° of latitude and longitude.
 */
export interface GeneratorInput {
  seed: string;
  taxonomy: readonly TaxonomyEntry[];
  chains: readonly Chain[];
  cities: readonly City[];
}

const TOP_WEIGHTS: Record<string, number> = {
  'Dining and Drinking': 30,
  Retail: 27,
  'Business and Professional Services': 12,
  'Travel and Transportation': 7,
  'Health and Medicine': 6,
  'Community and Government': 6,
  'Sports and Recreation': 5,
  'Arts and Entertainment': 3,
  'Landmarks and Outdoors': 3,
  Event: 1,
};

const COMMON: Record<string, number> = {
  Restaurant: 40,
  Cafe: 25,
  'Fast Food': 20,
  Bar: 12,
  Pub: 6,
  Bakery: 10,
  Supermarket: 12,
  'Convenience Store': 12,
  'Clothing Store': 10,
  Pharmacy: 8,
  'Pharmacy Counter': 8,
  Bank: 8,
  ATM: 5,
  Hotel: 8,
  'Gas Station': 8,
  Hairdresser: 8,
  'Hair Salon': 8,
  Park: 10,
  School: 6,
  'Place of Worship': 6,
  Dentist: 5,
  Doctor: 5,
  'Fitness Center': 5,
  Parking: 5,
  Museum: 3,
  'Ice Cream Shop': 4,
  'Pizza Restaurant': 6,
};

type Schedule = 'dining' | 'cafe' | 'bar' | 'shop' | 'office' | 'always' | 'outdoors';

function scheduleOf(top: string, name: string): Schedule {
  if (/Bar|Pub|Nightclub|Biergarten/.test(name)) return 'bar';
  if (/Cafe|Coffee|Bakery|Ice Cream/.test(name)) return 'cafe';
  if (/ATM|Gas Station|Charging|Hospital|Emergency/.test(name)) return 'always';
  if (top === 'Dining and Drinking') return 'dining';
  if (top === 'Retail') return 'shop';
  if (top === 'Landmarks and Outdoors') return 'outdoors';
  return 'office';
}

const hhmm = (minutes: number) => {
  const next = minutes >= 24 * 60;
  const m = minutes % (24 * 60);
  return `${next ? '+' : ''}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
};

function hoursFor(random: Random, schedule: Schedule): HoursEntry[] {
  const shift = (random.int(5) - 2) * 30;
  const days = (from: number, to: number, open: number, close: number): HoursEntry[] =>
    Array.from({ length: to - from + 1 }, (_, i) => ({
      day: from + i,
      open: hhmm(open + shift),
      close: hhmm(close + shift),
    }));
  switch (schedule) {
    case 'always':
      return days(1, 7, 0, 24 * 60).map((h) => ({ ...h, open: '0000', close: '+0000' }));
    case 'dining':
      return [
        ...days(1, 4, 11 * 60, 22 * 60),
        ...days(5, 6, 11 * 60, 23 * 60),
        ...days(7, 7, 12 * 60, 21 * 60),
      ];
    case 'cafe':
      return [...days(1, 5, 7 * 60, 19 * 60), ...days(6, 7, 8 * 60, 18 * 60)];
    case 'bar':
      return [
        ...days(2, 4, 17 * 60, 25 * 60),
        ...days(5, 6, 17 * 60, 27 * 60),
        ...days(7, 7, 16 * 60, 23 * 60),
      ];
    case 'shop':
      return days(1, 6, 9 * 60, 20 * 60);
    case 'outdoors':
      return days(1, 7, 6 * 60, 22 * 60);
    default:
      return days(1, 5, 8 * 60, 17 * 60);
  }
}

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 30) || 'place';

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FIRST_DAY = Date.UTC(2009, 2, 11);
const LAST_DAY = Date.UTC(2025, 5, 1);
const FLAGS = ['closed', 'duplicate', 'delete', 'privatevenue', 'inappropriate', 'doesnt_exist'];

export function createGenerator(input: GeneratorInput): (city: City) => PlaceRecord {
  const random = new Random(input.seed);
  const leaves = input.taxonomy.filter((c) => c.level >= 2);
  const byTop = new Map<string, TaxonomyEntry[]>();
  for (const c of leaves) {
    const top = c.path[0]!.name;
    const list = byTop.get(top) ?? [];
    list.push(c);
    byTop.set(top, list);
  }
  const tops = new WeightedPicker([...byTop.keys()], (t) => TOP_WEIGHTS[t] ?? 1);
  const perTop = new Map(
    [...byTop].map(([top, list]) => [
      top,
      new WeightedPicker(list, (c) => COMMON[c.name] ?? (c.level === 2 ? 1 : 0.3)),
    ]),
  );
  const chainsByCategory = new Map<string, Chain[]>();
  for (const chain of input.chains) {
    for (const id of chain.categoryIds) {
      const list = chainsByCategory.get(id) ?? [];
      list.push(chain);
      chainsByCategory.set(id, list);
    }
  }

  function chainFor(category: TaxonomyEntry, country: string): Chain | undefined {
    const candidates = chainsByCategory.get(category.id);
    if (!candidates) return undefined;
    for (let attempt = 0; attempt < 4; attempt++) {
      const chain = random.pick(candidates);
      if (chain.countries.includes(country) || chain.countries.includes('001')) return chain;
    }
    return undefined;
  }

  function nameFor(category: TaxonomyEntry, city: City): string {
    switch (random.int(5)) {
      case 0:
        return `${random.pick(SURNAMES)}'s ${category.shortName}`;
      case 1:
        return `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
      case 2:
        return `${random.pick(ADJECTIVES)} ${category.shortName}`;
      case 3:
        return `${city.name} ${category.shortName}`;
      default:
        return `${random.pick(NOUNS)} & ${random.pick(NOUNS)}`;
    }
  }

  return function placeIn(city: City): PlaceRecord {
    const sigmaKm = Math.min(12, 1.2 + 4 * Math.sqrt(city.population / 1e6));
    const latitude = Math.max(-89.9, Math.min(89.9, city.latitude + (random.gaussian() * sigmaKm) / 111.2));
    const cosLat = Math.max(0.05, Math.cos((latitude * Math.PI) / 180));
    let longitude = city.longitude + (random.gaussian() * sigmaKm) / (111.2 * cosLat);
    if (longitude > 180) longitude -= 360;
    if (longitude < -180) longitude += 360;

    const top = tops.pick(random);
    const category = perTop.get(top)!.pick(random);
    const categories = [category];
    if (random.chance(0.1)) {
      const second = perTop.get(top)!.pick(random);
      if (second.id !== category.id) categories.push(second);
    }
    const chain = random.chance(0.25) ? chainFor(category, city.country) : undefined;
    const name = chain?.name ?? nameFor(category, city);
    const id = random.hex(24);
    const created = FIRST_DAY + random.int(Math.floor((LAST_DAY - FIRST_DAY) / 86_400_000)) * 86_400_000;
    const refreshed = created + random.int(Math.floor((LAST_DAY - created) / 86_400_000) + 1) * 86_400_000;
    const site = slug(name);
    const dining = top === 'Dining and Drinking' || top === 'Retail';

    return {
      fsq_place_id: id,
      name,
      latitude: Math.round(latitude * 1e6) / 1e6,
      longitude: Math.round(longitude * 1e6) / 1e6,
      address: random.chance(0.92) ? streetAddress(random, city.country) : null,
      locality: city.name,
      region: city.region,
      postcode: postcode(random, city.country),
      admin_region: null,
      post_town: null,
      po_box: null,
      country: city.country,
      date_created: isoDate(created),
      date_refreshed: isoDate(refreshed),
      date_closed: random.chance(0.03) ? isoDate(refreshed) : null,
      tel: random.chance(0.7) ? telephone(random, city.country) : null,
      website: chain || random.chance(0.4) ? `https://www.${site}.example` : null,
      email: random.chance(0.2) ? `info@${site}.example` : null,
      facebook_id: random.chance(0.3)
        ? `${random.between(1, 9)}${random.hex(14).replace(/[a-f]/g, '7')}`
        : null,
      instagram: random.chance(0.3) ? site : null,
      twitter: random.chance(0.15) ? site.slice(0, 15) : null,
      fsq_category_ids: categories.map((c) => c.id),
      fsq_category_labels: categories.map((c) => c.label),
      placemaker_url: placemakerUrl(id),
      unresolved_flags: random.chance(0.02) ? [random.pick(FLAGS)] : [],
      fsq_chain_ids: chain ? [chain.id] : [],
      price:
        dining || random.chance(0.3) ? Math.min(4, 1 + Math.floor(Math.abs(random.gaussian()) * 1.3)) : null,
      rating: random.chance(0.6)
        ? Math.round(Math.max(1, Math.min(10, 7.5 + random.gaussian() * 1.2)) * 10) / 10
        : null,
      popularity: Math.round(random.next() ** 2 * 10_000) / 10_000,
      hours: random.chance(0.85) ? hoursFor(random, scheduleOf(top, category.name)) : null,
      time_zone: timeZoneAt(latitude, longitude),
    };
  };
}

/** The cities places are generated around, with their weights. */
export function cityPicker(cities: readonly City[]): WeightedPicker<City> {
  return new WeightedPicker(
    cities.filter((c) => c.population >= 15_000),
    (c) => c.population ** 0.85,
  );
}

const band = (degrees: number, size: number) => Math.floor(degrees / size);

/** Space order: by band of latitude, then longitude. */
function bySpace(size: number) {
  return (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) =>
    band(a.latitude, size) - band(b.latitude, size) || a.longitude - b.longitude;
}

/**
 * `count` places in batches of about `batchSize`, in space order (see above). The same input and count give
 * the same places in the same order.
 */
export function* generateInSpaceOrder(
  input: GeneratorInput,
  count: number,
  batchSize: number,
): Generator<PlaceRecord[]> {
  const picker = cityPicker(input.cities);
  const draws = new Random(`${input.seed}:cities`);
  const perCity = new Map<City, number>();
  for (let i = 0; i < count; i++) {
    const city = picker.pick(draws);
    perCity.set(city, (perCity.get(city) ?? 0) + 1);
  }
  const placeIn = createGenerator(input);
  const order = bySpace(0.1);
  let batch: PlaceRecord[] = [];
  for (const city of [...perCity.keys()].sort(bySpace(1))) {
    for (let n = perCity.get(city)!; n > 0; n--) {
      batch.push(placeIn(city));
      if (batch.length >= batchSize && n === 1) {
        yield batch.sort(order);
        batch = [];
      } else if (batch.length >= 4 * batchSize) {
        // a city with more places than a few batches
        yield batch.sort(order);
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch.sort(order);
}
