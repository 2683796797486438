import { chordFor, cubeLiteral, EARTH_RADIUS_M, earthPoint } from '../data/earth.ts';
import type { FieldName } from './fields.ts';
import type { QueryMeaning } from './meaning.ts';
import type { LatLng } from './params.ts';

/** What the store runs: filters, the order, and where the page starts. Built from checked parameters. */
export type Order = 'distance' | 'relevance' | 'rating' | 'popularity';

/** The ranked sets of sort=RELEVANCE after the window of the nearest matches (store/places-search.ts). */
export type RelevanceTier = 'beyond' | 'approximate';

export interface SearchPlan {
  /** The point distances are measured from (ll, the near city, or the rectangle's centre). */
  origin?: LatLng;
  circle?: { center: LatLng; radius: number };
  rectangle?: { ne: LatLng; sw: LatLng };
  query?: string;
  /** With query: the categories and chains it names (meaning.ts). */
  meaning?: QueryMeaning;
  /** The categories asked for and all their descendants. */
  categoryIds: string[];
  /** The categories as the request names them (open_now asks the index for them by category-and-slot tokens). */
  categoryRoots?: string[];
  chainIds: string[];
  excludeChainIds: string[];
  excludeAllChains: boolean;
  minPrice?: number;
  maxPrice?: number;
  openAtMinute?: number;
  openNowAt?: Date;
  /** With openNowAt: the local minute of the week then in the time zones found in the area (the others are
   * converted in SQL). */
  openNowZones?: { zone: string; minute: number }[];
  order: Order;
  limit: number;
  /**
   * Where the page starts: after this sort key and id; with a tier, in that ranked set of sort=RELEVANCE (the
   * matches as written beyond the window of the nearest, or the approximate matches, which come last).
   */
  after?: { key: number; id: string; tier?: RelevanceTier };
  /** sort=RELEVANCE around a point: how many of the nearest matches are ranked first (RELEVANCE_WINDOW). */
  window?: number;
  /** The fields the rows will be rendered with: only their columns are read. Every column when absent. */
  fields?: ReadonlySet<FieldName>;
}

export const pointLiteral = (p: LatLng) => cubeLiteral(p.latitude, p.longitude);

/** The axis-aligned 3-D box around a circle on the sphere: the centre ± the chord of the radius. */
export function circleBox(center: LatLng, radius: number): string {
  const [x, y, z] = earthPoint(center.latitude, center.longitude);
  const r = chordFor(radius) + 0.01;
  return `(${x - r}, ${y - r}, ${z - r}),(${x + r}, ${y + r}, ${z + r})`;
}

const inLon = (lon: number, sw: number, ne: number) =>
  sw <= ne ? lon >= sw && lon <= ne : lon >= sw || lon <= ne;

/**
 * The 3-D box around a latitude/longitude rectangle (which may cross the antimeridian). x, y and z are products
 * of one function of latitude and one of longitude, so their extremes lie on the edges or where latitude is 0
 * or longitude a multiple of 90°: those candidates give the exact box.
 */
export function rectangleBox(ne: LatLng, sw: LatLng): string {
  const lats = [sw.latitude, ne.latitude];
  if (sw.latitude < 0 && ne.latitude > 0) lats.push(0);
  const lons = [
    sw.longitude,
    ne.longitude,
    ...[-180, -90, 0, 90, 180].filter((l) => inLon(l, sw.longitude, ne.longitude)),
  ];
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const lat of lats) {
    for (const lon of lons) {
      earthPoint(lat, lon).forEach((v, i) => {
        min[i] = Math.min(min[i]!, v);
        max[i] = Math.max(max[i]!, v);
      });
    }
  }
  const e = 1; // metre of slack for rounding; rows are then checked against the exact rectangle
  return `(${min[0]! - e}, ${min[1]! - e}, ${min[2]! - e}),(${max[0]! + e}, ${max[1]! + e}, ${max[2]! + e})`;
}

/** Centre of a rectangle, across the antimeridian when it crosses it. */
export function rectangleCenter(ne: LatLng, sw: LatLng): LatLng {
  let lon = (sw.longitude + ne.longitude) / 2;
  if (sw.longitude > ne.longitude) lon = lon > 0 ? lon - 180 : lon + 180;
  return { latitude: (sw.latitude + ne.latitude) / 2, longitude: lon };
}

export const EARTH_DIAMETER = 2 * EARTH_RADIUS_M;
