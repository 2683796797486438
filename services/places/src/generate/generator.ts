import type { HoursEntry } from '../data/hours.ts';
import { type PlaceRecord, placemakerUrl } from '../data/place-record.ts';
import type { Chain } from '../reference/chains.ts';
import type { City } from '../reference/cities.ts';
import type { TaxonomyEntry } from '../reference/taxonomy.ts';
import { timeZoneAt } from '../reference/time-zone.ts';
import { categoryWeights } from './categories.ts';
import { type Language, languageOf } from './languages.ts';
import { localCategoryName } from './local-names.ts';
import { Localities, townRadiusKm } from './locality.ts';
import { chainCountries, type MajorChain, majorChains } from './major-chains.ts';
import { fitsKindlessName, related } from './names.ts';
import { phonesOf } from './phones.ts';
import { postcodesOf, type Spot } from './postcodes.ts';
import { Random, WeightedPicker } from './random.ts';

/**
 * Realistic synthetic places: around real cities (weighted by population), in real categories (weighted by how
 * common each kind of place is in a city: categories.ts), some under a brand that operates in that country,
 * with the country's street names, address order, postcodes and telephone numbers (languages.ts, postcodes.ts,
 * phones.ts), independent places named in the local language, hours, prices, ratings and popularity.
 * Deterministic: one seed, one sequence of places.
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

/** How one place is to be made: its category or chain when fixed, and the spread around the centre (km). */
export interface PlaceOptions {
  category?: string;
  chain?: Chain;
  sigmaKm?: number;
  /** Drawn again while farther than this from the centre. */
  maxKm?: number;
}

/** What is worked out once per city: its language, postcodes, telephone numbers and time zone. */
interface CityLocale {
  language: Language;
  postcode: (random: Random, spot: Spot) => string | null;
  telephone: (random: Random) => string | null;
  timeZone: string | null;
  /** Spread of places around the centre, km: a town's few streets, a metropolis's 10 km and more. */
  sigmaKm: number;
}

/** Share of places of a category under a brand: most fuel stations and supermarkets, few restaurants. */
const CHAIN_SHARE: Record<string, number> = {
  'Fast Food': 0.45,
  Supermarket: 0.6,
  'Gas Station': 0.7,
  'Convenience Store': 0.45,
  Bank: 0.8,
  Pharmacy: 0.35,
  Hotel: 0.3,
  'Coffee Shop': 0.4,
  Cafe: 0.1,
  Restaurant: 0.05,
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

function hoursFor(shift: number, schedule: Schedule): HoursEntry[] {
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

const FIRST_DAY_MS = Date.UTC(2009, 2, 11);
const LAST_DAY_MS = Date.UTC(2025, 5, 1);

const slugOf = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 30) || 'place';

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAYS = Math.floor((LAST_DAY_MS - FIRST_DAY_MS) / 86_400_000) + 1;
/** Every date between the first and last day, written once ("2019-04-01"). */
const DATES = Array.from({ length: DAYS }, (_, i) => isoDate(FIRST_DAY_MS + i * 86_400_000));

const FLAGS = ['closed', 'duplicate', 'delete', 'privatevenue', 'inappropriate', 'doesnt_exist'];

/** The opening hours of every schedule and shift, made once and shared by the places that keep them. */
function hoursTable(): Map<Schedule, HoursEntry[][]> {
  const schedules: Schedule[] = ['dining', 'cafe', 'bar', 'shop', 'office', 'always', 'outdoors'];
  return new Map(schedules.map((s) => [s, [0, 1, 2, 3, 4].map((k) => hoursFor((k - 2) * 30, s))]));
}

/**
 * A place id as the dataset's: a BSON ObjectId's 24 hex digits, whose first 8 are a time in seconds (here 2009
 * plus the place's rank in the run) and the other 16 random. Ids that rise as places are made append to the
 * primary key's last pages. Random ones made every row touch a random page of the key: once it outgrows the
 * buffer cache (616 MB at 10M places) a read, and after each checkpoint a whole page written to the WAL, per
 * row — the likely superlinear part of a 10M run (81 min against 86 s for 1M).
 */
function idFor(rank: number, random: Random): string {
  return (0x4a000000 + rank).toString(16).padStart(8, '0') + random.hex(16);
}

export function createGenerator(input: GeneratorInput): (city: City, options?: PlaceOptions) => PlaceRecord {
  const random = new Random(input.seed);
  let made = 0;
  const leaves = input.taxonomy.filter((c) => c.level >= 2);
  const weights = categoryWeights(leaves);
  const categories = new WeightedPicker(leaves, (c) => weights.get(c.id) ?? 0);
  const byId = new Map(input.taxonomy.map((c) => [c.id, c]));
  const hours = hoursTable();
  // Worked out once per category or name rather than per place (the generator makes millions).
  const slugs = new Map<string, string>();
  const slug = (name: string) => {
    let out = slugs.get(name);
    if (out === undefined) {
      out = slugOf(name);
      if (slugs.size < 200_000) slugs.set(name, out);
    }
    return out;
  };
  const schedules = new Map<string, Schedule>();
  const scheduleFor = (category: TaxonomyEntry) => {
    let out = schedules.get(category.id);
    if (out === undefined) {
      out = scheduleOf(category.path[0]!.name, category.name);
      schedules.set(category.id, out);
    }
    return out;
  };
  const single = new Map<string, { ids: string[]; labels: string[] }>();
  const categoryColumns = (list: TaxonomyEntry[]) => {
    if (list.length > 1) return { ids: list.map((c) => c.id), labels: list.map((c) => c.label) };
    let out = single.get(list[0]!.id);
    if (!out) {
      out = { ids: [list[0]!.id], labels: [list[0]!.label] };
      single.set(list[0]!.id, out);
    }
    return out;
  };
  const majors = majorChains(input.chains, input.taxonomy);
  const majorCountries = new Map(majors.map((m) => [m.chain.name, m.countries]));
  const majorIds = new Set(majors.map((m) => m.chain.id));
  const chainsByCategory = new Map<string, { chain: Chain; countries: ReadonlySet<string> }[]>();
  for (const chain of input.chains) {
    const countries = chainCountries(chain, majorCountries);
    if (countries.size === 0) continue;
    for (const id of chain.categoryIds) {
      const list = chainsByCategory.get(id) ?? [];
      list.push({ chain, countries });
      chainsByCategory.set(id, list);
    }
  }
  // Per category and country: the chains that operate there, the major brands ten times as likely.
  const chainsThere = new Map<string, WeightedPicker<Chain> | null>();
  function chainFor(category: TaxonomyEntry, country: string): Chain | undefined {
    const key = `${category.id}|${country}`;
    let picker = chainsThere.get(key);
    if (picker === undefined) {
      const local = (chainsByCategory.get(category.id) ?? [])
        .filter((c) => c.countries.has(country))
        .map((c) => c.chain);
      picker = local.length > 0 ? new WeightedPicker(local, (c) => (majorIds.has(c.id) ? 10 : 1)) : null;
      chainsThere.set(key, picker);
    }
    return picker?.pick(random);
  }

  const locales = new Map<number, CityLocale>();
  function localeOf(city: City): CityLocale {
    let locale = locales.get(city.id);
    if (!locale) {
      locale = {
        language: languageOf(city.country, city.region),
        postcode: postcodesOf(city),
        telephone: phonesOf(city),
        timeZone: timeZoneAt(city.latitude, city.longitude),
        sigmaKm: Math.min(12, townRadiusKm(city.population)),
      };
      locales.set(city.id, locale);
    }
    return locale;
  }

  /** A name in the local language that fits the category: kindless names ("Da Mario") only for eateries. */
  function nameFor(category: TaxonomyEntry, language: Language): string {
    const kind = localCategoryName(language.presets, category);
    const surname = random.pick(language.surnames);
    const stem = random.pick(language.stems);
    const name = language.name(random, kind, surname, stem);
    return name.includes(kind) || fitsKindlessName(category.presetId, language.presets)
      ? name
      : language.kindName(kind, surname, stem);
  }

  const localities = new Localities(input.cities);

  /** A point around the city: a normal spread of `sigmaKm`, drawn again (up to 20 times) beyond `maxKm`. */
  function pointNear(city: City, sigmaKm: number, maxKm: number): Spot {
    const cosCity = Math.max(0.05, Math.cos((city.latitude * Math.PI) / 180));
    let dy = 0;
    let dx = 0;
    for (let tries = 0; tries < 20; tries++) {
      dy = random.gaussian() * sigmaKm;
      dx = random.gaussian() * sigmaKm;
      if (dx * dx + dy * dy <= maxKm * maxKm) break;
    }
    const latitude = Math.max(-89.9, Math.min(89.9, city.latitude + dy / 111.2));
    let longitude = city.longitude + dx / (111.2 * cosCity);
    if (longitude > 180) longitude -= 360;
    if (longitude < -180) longitude += 360;
    return { latitude, longitude };
  }

  return function placeIn(drawnAround: City, options: PlaceOptions = {}): PlaceRecord {
    const around = localeOf(drawnAround);
    // Half the places in a dense core a third as wide as the city, half over all of it.
    const sigmaKm = options.sigmaKm ?? (random.chance(0.5) ? around.sigmaKm / 3 : around.sigmaKm);
    const { latitude, longitude } = pointNear(
      drawnAround,
      sigmaKm,
      options.maxKm ?? Number.POSITIVE_INFINITY,
    );
    // The town whose area the point is in names it, and its country's ways write it.
    const city = localities.townAt(latitude, longitude, drawnAround);
    const locale = localeOf(city);

    const fixed = options.chain
      ? byId.get(options.chain.categoryIds[0]!)
      : options.category
        ? byId.get(options.category)
        : undefined;
    const category = fixed ?? categories.pick(random);
    const top = category.path[0]!.name;
    const placeCategories = [category];
    if (random.chance(0.1)) {
      const second = categories.pick(random);
      if (second.id !== category.id && related(category.presetId, second.presetId))
        placeCategories.push(second);
    }
    const chain =
      options.chain ??
      (random.chance(CHAIN_SHARE[category.name] ?? 0.15) ? chainFor(category, city.country) : undefined);
    const name = chain?.name ?? nameFor(category, locale.language);
    const id = idFor(made++, random);
    const created = random.int(DAYS - 1);
    const refreshed = created + random.int(DAYS - created);
    const site = slug(name);
    const columns = categoryColumns(placeCategories);
    const dining = top === 'Dining and Drinking' || top === 'Retail';
    const maxHouse = locale.language.maxHouse;
    const house =
      maxHouse > 199 && !random.chance(0.7)
        ? random.between(200, maxHouse)
        : random.between(1, Math.min(199, maxHouse));

    return {
      fsq_place_id: id,
      name,
      latitude: Math.round(latitude * 1e6) / 1e6,
      longitude: Math.round(longitude * 1e6) / 1e6,
      // Every generated place has a street address (issue 41: demo places without one looked broken).
      address: locale.language.street(random, house),
      locality: city.name,
      region: city.region,
      postcode: locale.postcode(random, { latitude, longitude }),
      admin_region: null,
      post_town: null,
      po_box: null,
      country: city.country,
      date_created: DATES[created]!,
      date_refreshed: DATES[refreshed]!,
      date_closed: random.chance(0.03) ? DATES[refreshed]! : null,
      tel: random.chance(0.7) ? locale.telephone(random) : null,
      website: chain || random.chance(0.4) ? `https://www.${site}.example` : null,
      email: random.chance(0.2) ? `info@${site}.example` : null,
      facebook_id: random.chance(0.3)
        ? `${random.between(1, 9)}${random.hex(14).replace(/[a-f]/g, '7')}`
        : null,
      instagram: random.chance(0.3) ? site : null,
      twitter: random.chance(0.15) ? site.slice(0, 15) : null,
      fsq_category_ids: columns.ids,
      fsq_category_labels: columns.labels,
      placemaker_url: placemakerUrl(id),
      unresolved_flags: random.chance(0.02) ? [random.pick(FLAGS)] : [],
      fsq_chain_ids: chain ? [chain.id] : [],
      price:
        dining || random.chance(0.3) ? Math.min(4, 1 + Math.floor(Math.abs(random.gaussian()) * 1.3)) : null,
      rating: random.chance(0.6)
        ? Math.round(Math.max(1, Math.min(10, 7.5 + random.gaussian() * 1.2)) * 10) / 10
        : null,
      popularity: Math.round(random.next() ** 2 * 10_000) / 10_000,
      hours: random.chance(0.85) ? hours.get(scheduleFor(category))![random.int(5)]! : null,
      time_zone: locale.timeZone,
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

/** Space order of cities: by band of latitude, then longitude. */
function bySpace(size: number) {
  return (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) =>
    band(a.latitude, size) - band(b.latitude, size) || a.longitude - b.longitude;
}

/** How many places to make around a city, and which of them first (fixed categories, close to the centre). */
export interface CityPlan {
  city: City;
  count: number;
  /**
   * Made first, within `sigmaKm` of the centre (and no farther than `maxKm`): one place of each category
   * listed, then `perChain` places of each of the first MAJOR_CHAINS_PER_CITY major chains that operate in
   * the city's country (major-chains.ts).
   */
  core?: { categories: readonly string[]; sigmaKm: number; maxKm?: number; perChain?: number };
}

/** How many major chains a dense city's core has places of, at most. */
export const MAJOR_CHAINS_PER_CITY = 12;

/** Spreads the 16 low bits of n over the even bits of a 32-bit number. */
function spread16(n: number): number {
  let x = n & 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

/** Cells of the Z-order within a city: 0.0005° (~55 m of latitude), ±16° around its centre. */
const CELL_DEGREES = 0.0005;
const cellOf = (degrees: number) =>
  Math.min(0xffff, Math.max(0, Math.floor(degrees / CELL_DEGREES) + 0x8000));

/**
 * A place's position on the Z-order curve of ~55 m cells around its city's centre: places near each other are
 * near each other in this order, so written in it they share the table's pages, and a search reading the
 * hundred nearest matches of a point reads a few pages rather than a page for each.
 */
function zOrder(city: City, place: { latitude: number; longitude: number }): number {
  const x = cellOf(place.longitude - city.longitude);
  const y = cellOf(place.latitude - city.latitude);
  return (spread16(x) | (spread16(y) << 1)) >>> 0;
}

/** The places made first around a dense city: its categories, then its country's major chains, near the centre. */
function coreOf(
  city: City,
  core: NonNullable<CityPlan['core']>,
  majors: readonly MajorChain[],
): PlaceOptions[] {
  // A small town's core is no wider than the town.
  const radius = townRadiusKm(city.population);
  const near = { sigmaKm: Math.min(core.sigmaKm, radius / 2), maxKm: Math.min(core.maxKm ?? radius, radius) };
  const chains = majors.filter((m) => m.countries.has(city.country)).slice(0, MAJOR_CHAINS_PER_CITY);
  return [
    ...core.categories.map((category) => ({ category, ...near })),
    ...chains.flatMap((m) => Array.from({ length: core.perChain ?? 0 }, () => ({ chain: m.chain, ...near }))),
  ];
}

/**
 * The places of a plan in chunks of about `batchSize`, city by city (cities in space order: by band of a
 * degree of latitude, then longitude), each city's places in Z-order (zOrder); deterministic. While a city's
 * places are made, an empty chunk every `batchSize` places gives the caller a turn (to feed the database).
 */
export function* generatePlan(
  input: GeneratorInput,
  plan: readonly CityPlan[],
  batchSize: number,
): Generator<PlaceRecord[]> {
  const placeIn = createGenerator(input);
  const majors = majorChains(input.chains, input.taxonomy);
  const sorted = [...plan].sort((a, b) => bySpace(1)(a.city, b.city) || a.city.id - b.city.id);
  for (const { city, count, core } of sorted) {
    const fixed: PlaceOptions[] = core ? coreOf(city, core, majors) : [];
    const places: { place: PlaceRecord; key: number }[] = [];
    for (let i = 0; i < count; i++) {
      const place = placeIn(city, fixed[i] ?? {});
      places.push({ place, key: zOrder(city, place) });
      if (places.length % batchSize === 0 && i < count - 1) yield [];
    }
    places.sort((a, b) => a.key - b.key);
    for (let k = 0; k < places.length; k += batchSize)
      yield places.slice(k, k + batchSize).map((p) => p.place);
  }
}

/**
 * `count` places in batches of about `batchSize`, in space order, around cities drawn by population. The same
 * input and count give the same places in the same order.
 */
export function generateInSpaceOrder(
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
  return generatePlan(
    input,
    [...perCity].map(([city, n]) => ({ city, count: n })),
    batchSize,
  );
}
