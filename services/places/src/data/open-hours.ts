import { localMinuteOfWeek, MINUTES_PER_WEEK } from './hours.ts';

/**
 * The UTC hours of the day (0–23) during which a place is open at some minute on some day, as index tokens
 * ("open_h17"). They sit beside the category ids in the search index's tsvector, so that `open_now` passes
 * over places closed at this hour of the day inside the index, without reading their rows: at night in a
 * city, nearly every restaurant of a 22 km circle was read and found closed.
 *
 * A necessary condition only (the exact check on the place's own zone and week stays): a place open now is
 * open during the current UTC hour under its zone's offset now, which is the offset of mid-January or of
 * mid-July of the year written (both are marked, so daylight saving time on either side holds).
 */
export const openHourToken = (utcHour: number) => `open_h${utcHour}`;

const offsetsOf = new Map<string, number[]>();

/** The zone's offsets (minutes east of UTC) in mid-January and mid-July of `year`. */
function offsets(zone: string | null, year: number): number[] {
  const key = `${zone}|${year}`;
  const known = offsetsOf.get(key);
  if (known) return known;
  const out = new Set<number>();
  for (const month of [0, 6]) {
    const at = new Date(Date.UTC(year, month, 15, 12));
    const utc = ((at.getUTCDay() + 6) % 7) * 1440 + at.getUTCHours() * 60 + at.getUTCMinutes();
    let offset = (localMinuteOfWeek(at, zone) - utc) % MINUTES_PER_WEEK;
    if (offset > MINUTES_PER_WEEK / 2) offset -= MINUTES_PER_WEEK;
    if (offset < -MINUTES_PER_WEEK / 2) offset += MINUTES_PER_WEEK;
    out.add(offset);
  }
  const list = [...out];
  offsetsOf.set(key, list);
  return list;
}

/** The tokens of the open intervals (local minutes of the week, as weekIntervals gives them). */
export function openHourTokens(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
): string[] {
  if (intervals.length === 0) return [];
  const hours = new Set<number>();
  for (const offset of offsets(zone, year)) {
    for (const [start, end] of intervals) {
      // Every UTC hour the interval [start, end) touches, day-of-week dropped.
      const first = Math.floor((start - offset) / 60);
      const last = Math.floor((end - 1 - offset) / 60);
      for (let h = first; h <= last && hours.size < 24; h++) hours.add(((h % 24) + 24) % 24);
    }
  }
  return [...hours].sort((a, b) => a - b).map(openHourToken);
}
