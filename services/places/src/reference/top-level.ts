/**
 * Which of the dataset's ten top-level categories an OpenStreetMap preset belongs under. The presets' own
 * first segment (amenity, shop, …) says what kind of tag it is, not what the place is, so amenities are
 * split by value.
 */
export const TOP_LEVEL = [
  'Arts and Entertainment',
  'Business and Professional Services',
  'Community and Government',
  'Dining and Drinking',
  'Event',
  'Health and Medicine',
  'Landmarks and Outdoors',
  'Retail',
  'Sports and Recreation',
  'Travel and Transportation',
] as const;

export type TopLevel = (typeof TOP_LEVEL)[number];

const AMENITY: Record<string, TopLevel> = {
  restaurant: 'Dining and Drinking',
  fast_food: 'Dining and Drinking',
  cafe: 'Dining and Drinking',
  bar: 'Dining and Drinking',
  pub: 'Dining and Drinking',
  biergarten: 'Dining and Drinking',
  ice_cream: 'Dining and Drinking',
  food_court: 'Dining and Drinking',
  hookah_lounge: 'Dining and Drinking',
  internet_cafe: 'Business and Professional Services',
  nightclub: 'Arts and Entertainment',
  cinema: 'Arts and Entertainment',
  theatre: 'Arts and Entertainment',
  arts_centre: 'Arts and Entertainment',
  casino: 'Arts and Entertainment',
  gambling: 'Arts and Entertainment',
  planetarium: 'Arts and Entertainment',
  karaoke_box: 'Arts and Entertainment',
  events_venue: 'Event',
  exhibition_centre: 'Event',
  conference_centre: 'Event',
  hospital: 'Health and Medicine',
  clinic: 'Health and Medicine',
  doctors: 'Health and Medicine',
  dentist: 'Health and Medicine',
  pharmacy: 'Health and Medicine',
  veterinary: 'Health and Medicine',
  veterinary_pharmacy: 'Health and Medicine',
  social_facility: 'Health and Medicine',
  fuel: 'Travel and Transportation',
  charging_station: 'Travel and Transportation',
  parking: 'Travel and Transportation',
  bus_station: 'Travel and Transportation',
  ferry_terminal: 'Travel and Transportation',
  taxi: 'Travel and Transportation',
  car_rental: 'Travel and Transportation',
  car_sharing: 'Travel and Transportation',
  bicycle_rental: 'Travel and Transportation',
  boat_rental: 'Travel and Transportation',
  motorcycle_rental: 'Travel and Transportation',
  car_wash: 'Business and Professional Services',
  bank: 'Business and Professional Services',
  atm: 'Business and Professional Services',
  bureau_de_change: 'Business and Professional Services',
  money_transfer: 'Business and Professional Services',
  payment_centre: 'Business and Professional Services',
  coworking_space: 'Business and Professional Services',
  driver_training: 'Business and Professional Services',
  childcare: 'Community and Government',
  marketplace: 'Retail',
  dojo: 'Sports and Recreation',
  dive_centre: 'Sports and Recreation',
  fountain: 'Landmarks and Outdoors',
  grave_yard: 'Landmarks and Outdoors',
};

const TOURISM: Record<string, TopLevel> = {
  museum: 'Arts and Entertainment',
  gallery: 'Arts and Entertainment',
  zoo: 'Arts and Entertainment',
  aquarium: 'Arts and Entertainment',
  theme_park: 'Arts and Entertainment',
  attraction: 'Landmarks and Outdoors',
  viewpoint: 'Landmarks and Outdoors',
  artwork: 'Landmarks and Outdoors',
  picnic_site: 'Landmarks and Outdoors',
};

const LEISURE_OUTDOORS = new Set([
  'park',
  'garden',
  'nature_reserve',
  'playground',
  'common',
  'dog_park',
  'beach_resort',
  'bathing_place',
  'marina',
  'picnic_table',
  'bird_hide',
  'firepit',
]);
const LEISURE_ARTS = new Set([
  'amusement_arcade',
  'adult_gaming_centre',
  'escape_game',
  'dance',
  'hackerspace',
  'water_park',
  'indoor_play',
  'trampoline_park',
]);

export function topLevelOf(presetId: string): TopLevel {
  const [key = '', value = ''] = presetId.split('/');
  switch (key) {
    case 'amenity':
      return AMENITY[value] ?? 'Community and Government';
    case 'shop':
    case 'craft':
      return key === 'shop' ? 'Retail' : 'Business and Professional Services';
    case 'office':
      return value === 'government' || value === 'diplomatic'
        ? 'Community and Government'
        : 'Business and Professional Services';
    case 'tourism':
      return TOURISM[value] ?? 'Travel and Transportation';
    case 'leisure':
      if (LEISURE_OUTDOORS.has(value)) return 'Landmarks and Outdoors';
      if (LEISURE_ARTS.has(value)) return 'Arts and Entertainment';
      return 'Sports and Recreation';
    case 'healthcare':
      return 'Health and Medicine';
    case 'historic':
    case 'natural':
      return 'Landmarks and Outdoors';
    case 'attraction':
      return 'Arts and Entertainment';
    case 'club':
      return 'Community and Government';
    default:
      return 'Travel and Transportation';
  }
}
