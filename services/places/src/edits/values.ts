import type { HoursEntry } from '../data/hours.ts';
import { invalidParameter } from '../errors.ts';
import type { Gazetteer } from '../reference/cities.ts';
import type { Reference } from '../reference/reference.ts';
import { parseIdList } from '../search/params.ts';

/**
 * Checks of suggested values against the place schema. Each takes the parameter's name and text and returns
 * the value to store, or throws a 400 that names the parameter and says what would be accepted.
 */
const CONTROL = /[\u0000-\u001f\u007f]/;

export function plainText(name: string, text: string, max: number): string {
  const value = text.trim();
  if (value === '') {
    throw invalidParameter(name, `give some text, or name the field in unset_fields to clear it`);
  }
  if (value.length > max) throw invalidParameter(name, `at most ${max} characters (got ${value.length})`);
  if (CONTROL.test(value))
    throw invalidParameter(name, 'control characters (such as line breaks) are not allowed');
  return value;
}

export function coordinate(name: 'latitude' | 'longitude', text: string): number {
  const limit = name === 'latitude' ? 90 : 180;
  const value = Number(text.trim());
  if (!/^\s*-?\d{1,3}(\.\d{1,12})?\s*$/.test(text) || !(Math.abs(value) <= limit)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 40)}" is not a ${name} from -${limit} to ${limit} in decimal degrees (e.g. ${name === 'latitude' ? '48.8584' : '2.2945'})`,
    );
  }
  return value;
}

export function countryCode(name: string, text: string, gazetteer: Gazetteer): string {
  const code = text.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !gazetteer.countries.has(code)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 20)}" is not an ISO 3166-1 alpha-2 country code (e.g. FR, US)`,
    );
  }
  return code;
}

/** A telephone number: digits with the usual separators, 5 to 15 digits, optionally "+" and a country code. */
export function telephone(name: string, text: string): string {
  const trimmed = text.trim();
  const digits = trimmed.replace(/[\s().-]/g, '');
  if (!/^\+?\d{5,15}$/.test(digits) || !/^\+?[\d\s().-]+$/.test(trimmed)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 40)}" is not a phone number: give 5 to 15 digits, with "+" and the country code for the international form (e.g. +33 1 42 68 53 00)`,
    );
  }
  return digits;
}

export function website(name: string, text: string): string {
  const value = text.trim();
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(url.hostname) ||
    url.username !== '' ||
    url.password !== '' ||
    value.length > 500
  ) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 60)}" is not a web address: give an http or https URL with a host name, e.g. https://example.com/`,
    );
  }
  return value;
}

export function email(name: string, text: string): string {
  const value = text.trim();
  if (
    value.length > 254 ||
    !/^[^\s@<>(),;:"[\]\\]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(value)
  ) {
    throw invalidParameter(name, `"${text.slice(0, 60)}" is not an email address (e.g. hello@example.com)`);
  }
  return value;
}

/** An Instagram or Twitter handle, stored without "@". */
export function handle(name: string, text: string): string {
  const value = text.trim().replace(/^@/, '');
  if (!/^[A-Za-z0-9_.]{1,30}$/.test(value)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 40)}" is not a handle: 1 to 30 letters, digits, "_" or "."`,
    );
  }
  return value;
}

/** facebook_url → the page's id or name, stored as facebook_id. */
export function facebookId(name: string, text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  const host = url?.hostname.toLowerCase().replace(/^(www|m)\./, '');
  const segment = url?.pathname.split('/').filter(Boolean)[0];
  const id = segment === 'profile.php' ? url?.searchParams.get('id') : segment;
  if (!url || (host !== 'facebook.com' && host !== 'fb.com') || !id || !/^[A-Za-z0-9._-]{1,100}$/.test(id)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 60)}" is not a Facebook page address, e.g. https://www.facebook.com/LouvreMuseum`,
    );
  }
  return id;
}

const OPEN = /^([01]\d|2[0-3])([0-5]\d)$/;
const CLOSE = /^(\+?)([01]\d|2[0-3])([0-5]\d)$|^2400$/;
const HOURS_EXAMPLE =
  'e.g. 1,0800,1700;2,0800,1700;5,1800,+0200 (day 1 = Monday … 7 = Sunday, HHMM, "+" for the next day)';

/** `hours`: "day,start,end[,label]" entries joined with ";" (the reference's syntax). Labels are not kept. */
export function hours(name: string, text: string): HoursEntry[] {
  const entries = text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw invalidParameter(name, `give at least one entry, ${HOURS_EXAMPLE}`);
  if (entries.length > 50) throw invalidParameter(name, 'at most 50 entries');
  const out: HoursEntry[] = [];
  for (const entry of entries) {
    const [day, open, close, label, ...rest] = entry.split(',').map((s) => s.trim());
    const bad = (why: string) => invalidParameter(name, `"${entry.slice(0, 40)}": ${why}; ${HOURS_EXAMPLE}`);
    if (rest.length > 0 || close === undefined) throw bad('expected day,start,end[,label]');
    if (!/^[1-7]$/.test(day ?? '')) throw bad('the day must be 1 (Monday) to 7 (Sunday)');
    if (!OPEN.test(open ?? '')) throw bad('the start must be HHMM from 0000 to 2359');
    if (!CLOSE.test(close ?? ''))
      throw bad('the end must be HHMM (2400 for midnight), or +HHMM on the next day');
    if (!close!.startsWith('+') && Number(close) <= Number(open)) {
      throw bad('the end must be after the start, or written +HHMM when it is on the next day');
    }
    if (label !== undefined && label.length > 50) throw bad('a label has at most 50 characters');
    out.push({ day: Number(day), open: open!, close: close! });
  }
  return out.sort((a, b) => a.day - b.day || a.open.localeCompare(b.open));
}

/**
 * Category ids as a place stores them (Reference.storedIdOf): the real taxonomy's ids in either form, or Cairn's
 * own; an id that names no category is refused.
 */
export function categoryIds(name: string, text: string, reference: Reference): string[] {
  const ids = parseIdList(name, text);
  if (ids.length === 0) throw invalidParameter(name, 'give at least one category id');
  return [
    ...new Set(
      ids.map((id) => {
        const stored = reference.storedIdOf(id);
        if (stored === undefined) {
          throw invalidParameter(
            name,
            `no category has id "${id.slice(0, 40)}"; GET /places/categories lists them (24 hex digits or the numeric id)`,
          );
        }
        return stored;
      }),
    ),
  ];
}

/** Chain ids that exist. */
export function chainIds(name: string, text: string, reference: Reference): string[] {
  const ids = parseIdList(name, text);
  const unknown = ids.find((id) => !reference.chains.has(id));
  if (unknown !== undefined) throw invalidParameter(name, `no chain has id "${unknown.slice(0, 40)}"`);
  return ids;
}

/** Edit ids: as generated (UUIDs), in a comma list of at most 50. */
export const EDIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function editId(name: string, text: string): string {
  const id = text.trim().toLowerCase();
  if (!EDIT_ID.test(id)) throw invalidParameter(name, `"${text.slice(0, 60)}" is not a suggested edit id`);
  return id;
}
