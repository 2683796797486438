import { createHash } from 'node:crypto';
import { localMinuteOfWeek, MINUTES_PER_WEEK } from './hours.ts';

/**
 * When a place is open, as index tokens: the half hours of the UTC day ("open_0000" … "open_2330") and the days
 * of the UTC week ("open_mon" … "open_sun") in which it is open at some minute. They sit beside the category
 * ids in the search index's tsvector, so that `open_now` passes over places closed in this half hour or on this
 * day inside the index, without reading their rows: at night in a city, nearly every restaurant of a 22 km
 * circle was read and found closed.
 * Half hours and days rather than the 3-hour slots of 0013: at 05:15 UTC on a Sunday (1M places, 29 November),
 * the 22 km circles of New York City (00:15) and Kolkata (10:45) held 556 and 290 restaurants open at some
 * minute of the slot, and 6 and none open then; the others were rows read and dropped (17 and 8 ms). Opening
 * hours start and end on the hour or the half hour, so hours were not enough (Kolkata's 10:30–11:30 holds the
 * restaurants opening at 11:00), and Kolkata's last 103 were closed on Sundays.
 *
 * A necessary condition only (the exact check on the place's own zone and week stays): a place open now is
 * open during the current UTC half hour and day under its zone's offset now, which is the offset of
 * mid-January or of mid-July of the year written (both are marked, so daylight saving time on either side
 * holds). Each token is asked on its own: a place open on Sunday, and at this half hour on Monday, passes.
 */
export function openNowTokens(at: Date): string[] {
  const halfHour = at.getUTCHours() * 2 + (at.getUTCMinutes() >= 30 ? 1 : 0);
  return [halfHourToken(halfHour), DAY_TOKENS[(at.getUTCDay() + 6) % 7]!];
}

/** The token of half hour `k` of the UTC day (0 = 00:00–00:30 … 47). */
const halfHourToken = (k: number) =>
  `open_${String(Math.floor(k / 2)).padStart(2, '0')}${k % 2 === 1 ? '30' : '00'}`;

/** The tokens of the days of the UTC week, Monday first (as minutes of the week count from Monday 00:00). */
const DAY_TOKENS = ['open_mon', 'open_tue', 'open_wed', 'open_thu', 'open_fri', 'open_sat', 'open_sun'];

/** The 3-hour slot of the UTC day holding this hour (0 = 00:00–03:00 … 7 = 21:00–24:00). */
const slotOf = (utcHour: number) => Math.floor(utcHour / 3);

/**
 * A category's name in its tokens: the first 8 hex digits of the MD5 of its id, the same for every id however
 * long (ids of one taxonomy may share a long prefix). Two categories with one digest only cost a few more rows
 * read and found of the other category.
 */
function kindDigest(categoryId: string): string {
  let digest = digests.get(categoryId);
  if (digest === undefined) {
    digest = createHash('md5').update(categoryId).digest('hex').slice(0, 8);
    if (digests.size < 100_000) digests.set(categoryId, digest);
  }
  return digest;
}
const digests = new Map<string, string>();

/**
 * The token of a category and a slot ("<category digest>@s3"): a place carries it for every category of its own and
 * every ancestor of those, and each slot it is open in. `category + open_now` asks for the categories named
 * in the request in this slot: one token, held only by places of that kind open in that slot, so the search
 * index passes over every subtree without one, where the category's descendants (a Restaurant has ~200) and
 * the slot asked separately matched any subtree holding some restaurant and some place open (at night in a
 * city: every page of the circle was read to find none).
 */
export const categorySlotToken = (categoryId: string, utcHour: number) =>
  `${kindDigest(categoryId)}@s${slotOf(utcHour)}`;

/**
 * The category-and-slot tokens of a place: `paths` holds, for each of its categories, the ids from the top of
 * the taxonomy down to it; `slots` the 3-hour slots it is open in (openSlots). The same as migration 0017
 * computes. Slots of 3 hours here, not hours: a token per category, ancestor and hour would triple them.
 */
export function categorySlotTokens(
  paths: readonly (readonly string[])[],
  slots: readonly number[],
): string[] {
  if (slots.length === 0) return [];
  const kinds = new Set(paths.flat());
  const out: string[] = [];
  for (const kind of kinds) {
    const digest = kindDigest(kind);
    for (const slot of slots) out.push(`${digest}@s${slot}`);
  }
  return out;
}

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

/**
 * The UTC units (`unitMinutes` long, `period` of them in a cycle: 30 and 48 for the half hours of a day, 180 and
 * 8 for its slots, 1440 and 7 for the days of the week) that the open intervals (local minutes of the week, as
 * weekIntervals gives them) touch, in order.
 */
function utcUnits(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
  unitMinutes: number,
  period: number,
): number[] {
  const units = new Set<number>();
  for (const offset of offsets(zone, year)) {
    for (const [start, end] of intervals) {
      const first = Math.floor((start - offset) / unitMinutes);
      const last = Math.floor((end - 1 - offset) / unitMinutes);
      for (let k = first; k <= last && units.size < period; k++) units.add(((k % period) + period) % period);
    }
  }
  return [...units].sort((a, b) => a - b);
}

/** The half-hour and day tokens of the open intervals (openNowTokens). The same as migration 0018 computes. */
export function openTokens(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
): string[] {
  if (intervals.length === 0) return [];
  return [
    ...utcUnits(intervals, zone, year, 30, 48).map(halfHourToken),
    ...utcUnits(intervals, zone, year, 1440, 7).map((day) => DAY_TOKENS[day]!),
  ];
}

/** The 3-hour UTC slots of the open intervals, for categorySlotTokens. */
export function openSlots(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
): number[] {
  return utcUnits(intervals, zone, year, 180, 8);
}
