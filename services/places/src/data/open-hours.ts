import { createHash } from 'node:crypto';
import { localMinuteOfWeek, MINUTES_PER_WEEK, utcMinuteOfWeek } from './hours.ts';

/**
 * The 3-hour slots of the UTC day (0 = 00:00–03:00 … 7 = 21:00–24:00) during which a place is open at some
 * minute on some day, as index tokens ("open_s0" … "open_s7"). They sit beside the category ids in the search
 * index's tsvector, so that `open_now` passes over places closed in this slot inside the index, without
 * reading their rows: at night in a city, nearly every restaurant of a 22 km circle was read and found closed.
 * Slots of 3 hours rather than hours: the index grows by a tenth instead of a third (measured on 100k places:
 * 38 → 42 MB, hourly tokens 50 MB), and a place closed at night is still closed for whole slots.
 *
 * A necessary condition only (the exact check on the place's own zone and week stays): a place open now is
 * open during the current UTC slot under its zone's offset now, which is the offset of mid-January or of
 * mid-July of the year written (both are marked, so daylight saving time on either side holds).
 */
const SLOT_MINUTES = 180;

/** The token of the slot holding this UTC hour of the day. */
export const openSlotToken = (utcHour: number) => `open_s${Math.floor(utcHour / 3)}`;

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
  `${kindDigest(categoryId)}@s${Math.floor(utcHour / 3)}`;

/**
 * A category's key in places_open_kinds (migration 0018): the first 32 bits of the MD5 of its id, as a signed
 * integer, as the migration computes it. Two categories with one key only cost a few more rows read and found
 * of the other category.
 */
export const openKind = (categoryId: string) => Number.parseInt(kindDigest(categoryId), 16) | 0;

/**
 * A place's kinds: each of its categories and every ancestor of those, once. `paths` holds, for each of its
 * categories, the ids from the top of the taxonomy down to it. Its category-and-slot tokens and its rows of
 * places_open_kinds are both by kind.
 */
export const placeKinds = (paths: readonly (readonly string[])[]): Set<string> => new Set(paths.flat());

/**
 * The category-and-slot tokens of a place: `paths` holds, for each of its categories, the ids from the top of
 * the taxonomy down to it; `slots` its slot tokens (openSlotTokens). The same as migration 0017 computes.
 */
export function categorySlotTokens(
  paths: readonly (readonly string[])[],
  slots: readonly string[],
): string[] {
  if (slots.length === 0) return [];
  const out: string[] = [];
  for (const kind of placeKinds(paths)) {
    const digest = kindDigest(kind);
    for (const slot of slots) out.push(`${digest}@${slot.slice('open_'.length)}`);
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
    let offset = (localMinuteOfWeek(at, zone) - utcMinuteOfWeek(at)) % MINUTES_PER_WEEK;
    if (offset > MINUTES_PER_WEEK / 2) offset -= MINUTES_PER_WEEK;
    if (offset < -MINUTES_PER_WEEK / 2) offset += MINUTES_PER_WEEK;
    out.add(offset);
  }
  const list = [...out];
  offsetsOf.set(key, list);
  return list;
}

/** The tokens of the open intervals (local minutes of the week, as weekIntervals gives them). */
export function openSlotTokens(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
): string[] {
  if (intervals.length === 0) return [];
  const slots = new Set<number>();
  for (const offset of offsets(zone, year)) {
    for (const [start, end] of intervals) {
      // Every UTC slot the interval [start, end) touches, day-of-week dropped.
      const first = Math.floor((start - offset) / SLOT_MINUTES);
      const last = Math.floor((end - 1 - offset) / SLOT_MINUTES);
      for (let k = first; k <= last && slots.size < 8; k++) slots.add(((k % 8) + 8) % 8);
    }
  }
  return [...slots].sort((a, b) => a - b).map((k) => `open_s${k}`);
}

/**
 * Where, in UTC minutes of a cycle, a place is open at some time: the hull [first, past) of its open intervals in
 * local minutes, moved to UTC by its zone's offsets, as [start, stop] with start in [0, cycle) and stop possibly
 * past the cycle's end, or [0, cycle - 1] when that covers the whole cycle.
 */
function utcHull(
  first: number,
  past: number,
  offsetsOfZone: readonly number[],
  cycle: number,
): [number, number] {
  const from = first - Math.max(...offsetsOfZone);
  const to = past - Math.min(...offsetsOfZone);
  if (to - from >= cycle) return [0, cycle - 1];
  const start = ((from % cycle) + cycle) % cycle;
  return [start, start + to - from - 1];
}

/**
 * The span of a place's rows in places_open_kinds (migrations 0018, 0019), as its places_open_kinds_of computes
 * it: [dayStart, dayStop, weekStart, weekStop].
 *
 * - The day: the minutes of the UTC day during which the place is open on some day of the week (the hull of its
 *   intervals' minutes of the day).
 * - The week: the minutes of the UTC week (Monday 00:00 = 0) from the opening after its longest closure to the
 *   closing before it (the smallest arc of the week that holds every interval). A restaurant closed from Sunday
 *   21:00 to Monday 11:00 is outside it on Sunday night, though open at that time of day on Saturday.
 *
 * Each as utcHull gives it. `intervals` as weekIntervals gives them (sorted, merged); an interval from Sunday
 * into Monday is stored as two, [0, …) first and (…, 10080) last, joined here. Undefined without hours. The bulk
 * writers compute it here rather than by that function on the server (places-write.ts: copyPlaces); the tests
 * compare both, row for row.
 */
export function openKindSpan(
  intervals: readonly (readonly [number, number])[],
  zone: string | null,
  year: number,
): [number, number, number, number] | undefined {
  const n = intervals.length;
  if (n === 0) return undefined;
  const [firstStart, firstEnd] = intervals[0]!;
  const wraps = firstStart === 0 && intervals[n - 1]![1] === MINUTES_PER_WEEK;
  let hullStart = Number.POSITIVE_INFINITY;
  let hullEnd = Number.NEGATIVE_INFINITY;
  for (let i = n > 1 && wraps ? 1 : 0; i < n; i++) {
    const [start, end] = intervals[i]!;
    const from = start % 1440;
    const to = from + end - start + (i === n - 1 && wraps ? firstEnd : 0);
    hullStart = Math.min(hullStart, from);
    hullEnd = Math.max(hullEnd, to);
  }
  // The longest closure: after interval `longest`, until the next (the first one's start a week later after the
  // last); the first longest when several are as long.
  let longest = n - 1;
  let gap = firstStart + MINUTES_PER_WEEK - intervals[n - 1]![1];
  for (let i = 0; i < n - 1; i++) {
    const closed = intervals[i + 1]![0] - intervals[i]![1];
    if (closed > gap || (closed === gap && i < longest)) {
      gap = closed;
      longest = i;
    }
  }
  const weekFirst = longest === n - 1 ? firstStart : intervals[longest + 1]![0];
  const weekPast = intervals[longest]![1] + (longest === n - 1 ? 0 : MINUTES_PER_WEEK);
  const zoneOffsets = offsets(zone, year);
  return [
    ...utcHull(hullStart, hullEnd, zoneOffsets, 1440),
    ...utcHull(weekFirst, weekPast, zoneOffsets, MINUTES_PER_WEEK),
  ] as [number, number, number, number];
}
