import { EARTH_RADIUS_M } from '../data/earth.ts';
import { localMinuteOfWeek } from '../data/hours.ts';
import { timeZoneAt } from '../reference/time-zone.ts';
import type { LatLng } from './params.ts';

/**
 * The time zones of an area, sampled (the centre and rings of points for a circle, a grid for a rectangle),
 * with the local minute of the week at `now` in each. `open_now` then compares each place's hours with its
 * zone's minute instead of converting the time per row in SQL; a place in a zone the samples missed is still
 * converted in SQL, so the samples only make it faster, never different.
 */
const RINGS = [1 / 3, 2 / 3, 1];
const BEARINGS = 12;
const GRID = 5;

function destination(from: LatLng, bearing: number, metres: number): LatLng {
  const d = metres / EARTH_RADIUS_M;
  const lat1 = (from.latitude * Math.PI) / 180;
  const lon1 = (from.longitude * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lon2 =
    lon1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  const lon = (((((lon2 * 180) / Math.PI + 540) % 360) + 360) % 360) - 180;
  return { latitude: (lat2 * 180) / Math.PI, longitude: lon };
}

function circleSamples(center: LatLng, radius: number): LatLng[] {
  const points = [center];
  for (const ring of RINGS)
    for (let i = 0; i < BEARINGS; i++)
      points.push(destination(center, (2 * Math.PI * i) / BEARINGS, radius * ring));
  return points;
}

function rectangleSamples(ne: LatLng, sw: LatLng): LatLng[] {
  const width =
    ne.longitude >= sw.longitude ? ne.longitude - sw.longitude : ne.longitude + 360 - sw.longitude;
  const points: LatLng[] = [];
  for (let i = 0; i < GRID; i++) {
    for (let j = 0; j < GRID; j++) {
      let longitude = sw.longitude + (width * j) / (GRID - 1);
      if (longitude > 180) longitude -= 360;
      points.push({ latitude: sw.latitude + ((ne.latitude - sw.latitude) * i) / (GRID - 1), longitude });
    }
  }
  return points;
}

export function zoneMinutes(
  area: { circle?: { center: LatLng; radius: number }; rectangle?: { ne: LatLng; sw: LatLng } },
  now: Date,
): { zone: string; minute: number }[] {
  const samples = area.circle
    ? circleSamples(area.circle.center, area.circle.radius)
    : area.rectangle
      ? rectangleSamples(area.rectangle.ne, area.rectangle.sw)
      : [];
  const zones = new Set<string>();
  for (const s of samples) {
    const zone = timeZoneAt(Math.max(-90, Math.min(90, s.latitude)), s.longitude);
    if (zone) zones.add(zone);
  }
  return [...zones].map((zone) => ({ zone, minute: localMinuteOfWeek(now, zone) }));
}
