/**
 * Which names fit which places. Names that do not say what a place is ("Da Mario", "Zum Schwarzen Adler",
 * "The Golden Spoon", "Chez Martin") are names of eateries and bars, so only those get them — and in a
 * cuisine's own language only that cuisine's restaurants ("Da Mario" is a trattoria or a pizzeria, not a sushi
 * bar). Every other place is named after its kind ("Apotheke Müller", "Victoria Museum").
 */
const KINDLESS_EVERYWHERE = new Set([
  'amenity/restaurant',
  'amenity/bar',
  'amenity/pub',
  'amenity/cafe',
  'amenity/biergarten',
]);

/** The cuisines whose restaurants carry the kindless names of a language (the iD presets' language code). */
const OWN_CUISINE: Record<string, readonly string[]> = {
  it: ['amenity/restaurant/italian', 'amenity/restaurant/pizza', 'amenity/fast_food/pizza'],
  fr: ['amenity/restaurant/french'],
  de: ['amenity/restaurant/german'],
  es: ['amenity/restaurant/spanish', 'amenity/restaurant/mexican', 'amenity/restaurant/tapas'],
  pt: ['amenity/restaurant/portuguese', 'amenity/restaurant/brazilian'],
  en: ['amenity/restaurant/american', 'amenity/restaurant/british', 'amenity/restaurant/steakhouse'],
  el: ['amenity/restaurant/greek'],
  tr: ['amenity/restaurant/turkish', 'amenity/fast_food/kebab'],
  ja: ['amenity/restaurant/japanese', 'amenity/restaurant/sushi', 'amenity/restaurant/ramen'],
  'zh-CN': ['amenity/restaurant/chinese'],
  'zh-TW': ['amenity/restaurant/chinese'],
  ko: ['amenity/restaurant/korean'],
  vi: ['amenity/restaurant/vietnamese'],
  th: ['amenity/restaurant/thai'],
};

export function fitsKindlessName(presetId: string, language: string): boolean {
  return KINDLESS_EVERYWHERE.has(presetId) || (OWN_CUISINE[language]?.includes(presetId) ?? false);
}

/**
 * Kinds a place may be both of, because one name fits both: a pizzeria that is an Italian restaurant, a coffee
 * shop that is a café, a bakery that sells pastry. A second category is kept only from these groups.
 */
const GROUPS: readonly (readonly string[])[] = [
  ['amenity/restaurant/pizza', 'amenity/restaurant/italian', 'amenity/fast_food/pizza'],
  ['amenity/restaurant/sushi', 'amenity/restaurant/japanese', 'amenity/restaurant/ramen'],
  ['amenity/cafe', 'amenity/cafe/coffee_shop', 'shop/pastry', 'shop/bakery'],
  ['amenity/bar', 'amenity/pub', 'amenity/biergarten', 'amenity/nightclub'],
  ['amenity/restaurant', 'amenity/restaurant/seafood', 'amenity/restaurant/steakhouse'],
  [
    'amenity/restaurant/asian',
    'amenity/restaurant/chinese',
    'amenity/restaurant/thai',
    'amenity/restaurant/vietnamese',
  ],
  [
    'amenity/fast_food',
    'amenity/fast_food/burger',
    'amenity/fast_food/chicken',
    'amenity/fast_food/sandwich',
  ],
  ['shop/supermarket', 'shop/convenience', 'shop/greengrocer', 'shop/deli'],
  ['shop/alcohol', 'shop/wine'],
  ['shop/books', 'shop/stationery', 'shop/newsagent'],
  ['shop/beauty', 'shop/beauty/nails', 'shop/hairdresser', 'shop/cosmetics'],
  ['amenity/doctors', 'amenity/clinic', 'healthcare/physiotherapist'],
  ['amenity/pharmacy', 'shop/chemist'],
  ['tourism/museum', 'tourism/gallery', 'tourism/attraction'],
  ['tourism/hotel', 'tourism/guest_house', 'tourism/hostel', 'tourism/apartment'],
  ['leisure/park', 'leisure/garden', 'leisure/playground'],
  ['leisure/fitness_centre', 'leisure/sports_centre', 'leisure/swimming_pool'],
  ['amenity/cinema', 'amenity/theatre', 'amenity/arts_centre'],
  ['amenity/bank', 'amenity/atm'],
  ['amenity/fuel', 'shop/convenience', 'amenity/car_wash'],
];

const GROUP_OF = new Map<string, Set<string>>();
for (const group of GROUPS)
  for (const preset of group) {
    const set = GROUP_OF.get(preset) ?? new Set<string>();
    for (const other of group) set.add(other);
    GROUP_OF.set(preset, set);
  }

/** Whether one place may be of both kinds. */
export function related(a: string, b: string): boolean {
  return a !== b && (GROUP_OF.get(a)?.has(b) ?? false);
}
