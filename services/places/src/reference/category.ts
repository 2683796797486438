/** One category of the taxonomy, in the dataset's layout: a level (1–6) and the path from the top. */
export interface Category {
  id: string;
  level: number;
  name: string;
  /** "Dining and Drinking > Restaurant > Korean Restaurant" */
  label: string;
  parentId: string | null;
  shortName: string;
  pluralName: string;
  /** Icon name from the preset ("maki-restaurant-noodle"), when it has one. */
  icon: string | null;
  source: 'osm' | 'import';
  /** Ids and names from level 1 down to this category. */
  path: { id: string; name: string }[];
}

/** "Bakery" → "Bakeries", "Bus Station" → "Bus Stations", "Church" → "Churches". */
export function pluralOf(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}
