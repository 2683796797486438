/**
 * Opening hours as the API shows them (`regular: [{day, open, close}]`, Monday = 1, "HHMM", a close of
 * "+HHMM" meaning the next day) and as search uses them: minutes of the local week, Monday 00:00 = 0.
 */
export interface HoursEntry {
  day: number;
  open: string;
  close: string;
}

export const MINUTES_PER_WEEK = 7 * 24 * 60;
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function minutes(hhmm: string): number {
  const m = /^\+?(\d\d)(\d\d)$/.exec(hhmm);
  if (!m) throw new Error(`bad time "${hhmm}"`);
  return Number(m[1]) * 60 + Number(m[2]) + (hhmm.startsWith('+') ? 24 * 60 : 0);
}

/** Half-open [start, end) intervals of the week, merged and wrapped past Sunday midnight. */
export function weekIntervals(regular: readonly HoursEntry[]): [number, number][] {
  const raw: [number, number][] = [];
  for (const h of regular) {
    const base = (h.day - 1) * 24 * 60;
    const start = base + minutes(h.open);
    let end = base + minutes(h.close);
    if (end <= start) end += 24 * 60;
    if (end > MINUTES_PER_WEEK) {
      raw.push([start, MINUTES_PER_WEEK], [0, end - MINUTES_PER_WEEK]);
    } else raw.push([start, end]);
  }
  raw.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of raw) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** The int4multirange literal of the intervals, e.g. "{[480,1320),[1920,2760)}". */
export function multirangeLiteral(intervals: readonly [number, number][]): string {
  return `{${intervals.map(([s, e]) => `[${s},${e})`).join(',')}}`;
}

const fmt = (hhmm: string) => `${hhmm.slice(-4, -2)}:${hhmm.slice(-2)}`;

/** "Mon-Fri 08:00-22:00; Sat 09:00-23:00" (days with the same hours grouped; days closed left out). */
export function hoursDisplay(regular: readonly HoursEntry[]): string {
  const perDay = DAY_NAMES.map((_, i) =>
    regular
      .filter((h) => h.day === i + 1)
      .map((h) => `${fmt(h.open)}-${fmt(h.close)}`)
      .join(', '),
  );
  const groups: string[] = [];
  for (let i = 0; i < 7; ) {
    let j = i;
    while (j + 1 < 7 && perDay[j + 1] === perDay[i]) j++;
    if (perDay[i] !== '') groups.push(`${DAY_NAMES[i]}${j > i ? `-${DAY_NAMES[j]}` : ''} ${perDay[i]}`);
    i = j + 1;
  }
  return groups.join('; ');
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per zone, by the second it was for: every zone's offset is a whole number of seconds, so
 * the local minute is the same throughout a second (and formatting costs ~10 µs). */
const lastMinute = new Map<string, { second: number; minute: number }>();

/** The minute of the UTC week at `at`; Monday 00:00 = 0. */
export const utcMinuteOfWeek = (at: Date): number =>
  ((at.getUTCDay() + 6) % 7) * 1440 + at.getUTCHours() * 60 + at.getUTCMinutes();

/** Minute of the local week at `at` in `timeZone` (UTC when the zone is unknown). */
export function localMinuteOfWeek(at: Date, timeZone: string | null): number {
  const zone = timeZone ?? 'UTC';
  const second = Math.floor(at.getTime() / 1000);
  const last = lastMinute.get(zone);
  if (last && last.second === second) return last.minute;
  const minute = formatMinuteOfWeek(at, zone);
  lastMinute.set(zone, { second, minute });
  return minute;
}

function formatMinuteOfWeek(at: Date, zone: string): number {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'UTC',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    }
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  const day = DAY_NAMES.indexOf(parts.weekday ?? 'Mon');
  return day * 24 * 60 + Number(parts.hour) * 60 + Number(parts.minute);
}

export function isOpenAt(intervals: readonly [number, number][], minute: number): boolean {
  return intervals.some(([s, e]) => minute >= s && minute < e);
}
