import type { Queryable } from '@cairn/kit';

/** Every stored place, read plainly, for checking search results against a computation of our own. */
export interface Plain {
  id: string;
  name: string;
  lat: number;
  lon: number;
  categories: string[];
  chains: string[];
  price: number | null;
  rating: number | null;
  popularity: number | null;
  hours: { day: number; open: string; close: string }[] | null;
  timeZone: string | null;
  text: string;
}

export async function allPlaces(db: Queryable): Promise<Plain[]> {
  const { rows } = await db.query<{
    fsq_place_id: string;
    name: string;
    latitude: number;
    longitude: number;
    fsq_category_ids: string[];
    fsq_chain_ids: string[];
    price: number | null;
    rating: number | null;
    popularity: number | null;
    hours: Plain['hours'];
    time_zone: string | null;
    search_text: string;
  }>(
    'SELECT fsq_place_id, name, latitude, longitude, fsq_category_ids, fsq_chain_ids, price, rating::float8 AS rating, popularity::float8 AS popularity, hours, time_zone, search_text FROM places',
  );
  return rows.map((r) => ({
    id: r.fsq_place_id,
    name: r.name,
    lat: r.latitude,
    lon: r.longitude,
    categories: r.fsq_category_ids,
    chains: r.fsq_chain_ids,
    price: r.price,
    rating: r.rating,
    popularity: r.popularity,
    hours: r.hours,
    timeZone: r.time_zone,
    text: r.search_text,
  }));
}

/** Haversine on the earthdistance sphere (radius 6378168 m). */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6378168 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Is the place open at minute `m` of its local week (Monday 00:00 = 0)? Computed from the regular hours. */
export function openAt(hours: Plain['hours'], m: number): boolean {
  if (!hours) return false;
  return hours.some((h) => {
    const t = (s: string) =>
      Number(s.slice(-4, -2)) * 60 + Number(s.slice(-2)) + (s.startsWith('+') ? 1440 : 0);
    const start = (h.day - 1) * 1440 + t(h.open);
    let end = (h.day - 1) * 1440 + t(h.close);
    if (end <= start) end += 1440;
    return (m >= start && m < end) || (m + 10080 >= start && m + 10080 < end);
  });
}

export function localMinute(at: Date, zone: string | null): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone ?? 'UTC',
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
  return day * 1440 + Number(get('hour')) * 60 + Number(get('minute'));
}
