import { invalidParameter } from '../errors.ts';
import { geocoder } from '../geocode/geocoder.ts';
import type { City, Gazetteer } from '../reference/cities.ts';

/**
 * `near`: a place the geocoder knows by any of its names ("Roma", "München, Deutschland", "Washington, DC",
 * "Springfield, IL", "Paris, FR"), or a 400 saying so.
 */
export function resolveNear(gazetteer: Gazetteer, text: string): City {
  const city = geocoder(gazetteer).resolve(text);
  if (!city) {
    throw invalidParameter(
      'near',
      `"${text.slice(0, 80)}" is not a place we can geocode; give a city name, optionally with its region or country code (e.g. "Springfield, IL", "Paris, FR"), or use ll`,
    );
  }
  return city;
}

/** How far a city reaches when searched with `near` and no radius: more people, wider city. */
export function cityRadius(city: City): number {
  return Math.round(Math.min(30_000, Math.max(3_000, 2_000 + Math.sqrt(city.population) * 20)));
}
