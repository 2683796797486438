/**
 * What a place is, coarsely, for its derived tips and photos: read from its category labels
 * ("Dining and Drinking > Cafe").
 */
export type PlaceKind = 'food' | 'drink' | 'shop' | 'outdoor' | 'culture' | 'stay' | 'general';

const RULES: readonly (readonly [RegExp, PlaceKind])[] = [
  [/Cafe|Coffee|Tea|Bar\b|Pub|Brewery|Wine|Juice|Biergarten|Nightclub/, 'drink'],
  [/^Dining and Drinking/, 'food'],
  [/Museum|Gallery|Theater|Theatre|Monument|Historic|Memorial|Library|Arts and Entertainment/, 'culture'],
  [/Hotel|Hostel|Motel|Guest House|Lodging|Campground/, 'stay'],
  [/^Landmarks and Outdoors|Park|Beach|Garden|Playground|Trail|Sports and Recreation/, 'outdoor'],
  [/^Retail/, 'shop'],
];

export function kindOf(labels: readonly string[]): PlaceKind {
  const label = labels[0] ?? '';
  for (const [pattern, kind] of RULES) if (pattern.test(label)) return kind;
  return 'general';
}

/** The photo classifications of the real API (its Get Place Photos reference), which `classifications` filters. */
export const PHOTO_CLASSIFICATIONS = [
  'exhibit',
  'facilities',
  'food_or_drink',
  'indoor_facilities_and_classrooms',
  'indoor_general',
  'indoor_or_ambience',
  'logos',
  'menu',
  'monuments_and_landmark_buildings',
  'outdoor',
  'outdoor_building_and_grounds',
  'outdoor_building_exterior',
  'outdoor_grounds',
  'outdoor_or_storefront',
  'outdoor_scenery',
  'product',
] as const;
export type PhotoClassification = (typeof PHOTO_CLASSIFICATIONS)[number];

/** The classifications a place of each kind has photos of, most common first. */
export const PHOTO_MIX: Record<PlaceKind, readonly PhotoClassification[]> = {
  food: ['food_or_drink', 'food_or_drink', 'indoor_or_ambience', 'menu', 'outdoor_or_storefront'],
  drink: ['food_or_drink', 'indoor_or_ambience', 'food_or_drink', 'menu', 'outdoor_or_storefront'],
  shop: ['product', 'indoor_general', 'outdoor_or_storefront', 'product', 'logos'],
  outdoor: ['outdoor_scenery', 'outdoor_grounds', 'outdoor', 'outdoor_scenery', 'facilities'],
  culture: [
    'exhibit',
    'exhibit',
    'monuments_and_landmark_buildings',
    'indoor_general',
    'outdoor_building_exterior',
  ],
  stay: ['indoor_or_ambience', 'outdoor_building_exterior', 'facilities', 'indoor_general', 'food_or_drink'],
  general: ['outdoor_building_exterior', 'indoor_general', 'outdoor_or_storefront', 'logos', 'facilities'],
};
