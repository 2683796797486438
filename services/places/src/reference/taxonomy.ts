import { createRequire } from 'node:module';
import { type Category, pluralOf } from './category.ts';
import { hexId } from './ids.ts';
import { TOP_LEVEL, topLevelOf } from './top-level.ts';

/**
 * The category taxonomy, built from the OpenStreetMap presets of the iD editor (@openstreetmap/id-tagging-schema,
 * ISC): the ten top-level categories of the open places dataset, then one level per segment of a preset id
 * ("amenity/restaurant/korean" → Dining and Drinking > Restaurant > Korean Restaurant). Presets that are no
 * venue (benches, bins, platforms, pitch markings…) are left out.
 */
interface Preset {
  icon?: string;
  geometry?: string[];
  tags?: Record<string, string>;
  searchable?: boolean;
}

export interface TaxonomyEntry extends Category {
  /** The preset's tags, used to place brands under categories. */
  tags: Record<string, string>;
  /** The iD preset's id ("amenity/cafe"); '' for the ten top-level categories. */
  presetId: string;
}

const KEYS = new Set([
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'healthcare',
  'office',
  'craft',
  'historic',
  'aeroway',
  'public_transport',
  'attraction',
  'club',
]);

/** Presets of those keys that describe no venue a person would search for. */
const NOT_VENUES =
  /^(amenity\/(bench|waste_basket|waste_disposal|waste_transfer_station|recycling_container|vending_machine|parking_space|parking_entrance|bicycle_parking|motorcycle_parking|post_box|letter_box|telephone|drinking_water|water_point|watering_place|toilets|shower|shelter|clock|lounger|grit_bin|hunting_stand|bbq|baking_oven|binoculars|compressed_air|device_charging_station|dog_toilet|dressing_room|give_box|kneipp_water_cure|lavoir|luggage_locker|parcel_locker|payment_terminal|photo_booth|public_bookcase|sanitary_dump_station|smoking_area|ticket_validator|trolley_bay|vacuum_cleaner|weighbridge|bicycle_wash|bicycle_repair_station|boat_storage|library_dropoff|kitchen|car_pooling|polling_station|recycling_centre|traffic_park|swingerclub|stripclub|love_hotel|mortuary|grave_yard)\b|leisure\/(track|fitness_station|picnic_table|outdoor_seating|slipway|bleachers|hot_tub|firepit|bandstand|pitch\/athletics)|tourism\/(information\/(terminal|route_marker|map|guidepost|board)|camp_pitch)|public_transport\/(platform|station$)|aeroway\/(windsock|parking_position|gate|apron|hangar|spaceport))/;

function selectPresets(presets: Record<string, Preset>, names: Record<string, { name?: string }>) {
  const selected = new Map<string, { preset: Preset; name: string }>();
  for (const [id, preset] of Object.entries(presets)) {
    const segments = id.split('/');
    if (!KEYS.has(segments[0] ?? '') || segments.length < 2) continue;
    if (preset.searchable === false || NOT_VENUES.test(id)) continue;
    if (!(preset.geometry ?? []).some((g) => g === 'point' || g === 'area' || g === 'vertex')) continue;
    if (id.startsWith('public_transport/') && !id.startsWith('public_transport/station_')) continue;
    if (
      id.startsWith('aeroway/') &&
      !['aeroway/aerodrome', 'aeroway/terminal', 'aeroway/helipad'].includes(id)
    )
      continue;
    const name = names[id]?.name;
    if (!name) continue;
    selected.set(id, { preset, name });
  }
  return selected;
}

export function buildTaxonomy(): TaxonomyEntry[] {
  const require = createRequire(import.meta.url);
  const presets = require('@openstreetmap/id-tagging-schema/dist/presets.min.json') as Record<string, Preset>;
  const en = require('@openstreetmap/id-tagging-schema/dist/translations/en.min.json') as {
    en: { presets: { presets: Record<string, { name?: string }> } };
  };
  const selected = selectPresets(presets, en.en.presets.presets);

  const entries = new Map<string, TaxonomyEntry>();
  const top = new Map<string, TaxonomyEntry>();
  for (const name of TOP_LEVEL) {
    const id = hexId('category', name);
    const entry: TaxonomyEntry = {
      id,
      level: 1,
      name,
      label: name,
      parentId: null,
      shortName: name,
      pluralName: name,
      icon: null,
      source: 'osm',
      path: [{ id, name }],
      tags: {},
      presetId: '',
    };
    top.set(name, entry);
    entries.set(`top:${name}`, entry);
  }

  // Parents before children: sort by depth, then id, so every ancestor already has its entry.
  const ids = [...selected.keys()].sort(
    (a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b),
  );
  for (const presetId of ids) {
    const { preset, name } = selected.get(presetId)!;
    let parent: TaxonomyEntry | undefined;
    const segments = presetId.split('/');
    for (let n = segments.length - 1; n >= 2 && !parent; n--)
      parent = entries.get(segments.slice(0, n).join('/'));
    parent ??= top.get(topLevelOf(presetId))!;
    if (parent.level >= 6) continue;
    const id = hexId('category', presetId);
    entries.set(presetId, {
      id,
      level: parent.level + 1,
      name,
      label: `${parent.label} > ${name}`,
      parentId: parent.id,
      shortName: name,
      pluralName: pluralOf(name),
      icon: preset.icon ?? null,
      source: 'osm',
      path: [...parent.path, { id, name }],
      tags: preset.tags ?? {},
      presetId,
    });
  }
  return [...entries.values()];
}
