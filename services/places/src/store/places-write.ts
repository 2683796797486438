import { copyArrayField, copyField, type Db, type Queryable } from '@cairn/kit';
import { earthPoint } from '../data/earth.ts';
import { multirangeLiteral, weekIntervals } from '../data/hours.ts';
import {
  categorySlotTokens,
  openKind,
  openKindSpan,
  openSlotTokens,
  placeKinds,
} from '../data/open-hours.ts';
import { phoneSearchText } from '../data/phone-text.ts';
import { OS_COLUMNS, type PlaceRecord } from '../data/place-record.ts';
import type { Reference } from '../reference/reference.ts';

/** What a place's derived columns take from the reference. */
export interface PlaceNames {
  /** A chain's name, for the search text. */
  chainName(id: string): string | undefined;
  /** The ids from the top of the taxonomy down to this category, for open_hours' category tokens. */
  categoryPath(id: string): readonly string[] | undefined;
}

/** The names a reference knows. */
export function namesOf(reference: Reference): PlaceNames {
  return {
    chainName: (id) => reference.chains.get(id)?.name,
    categoryPath: (id) => reference.categories.get(id)?.path.map((step) => step.id),
  };
}

/**
 * The one write path for places (generator, importer, demo seed, edits): a batch is one statement over
 * json_to_recordset() of one JSON text, so thousands of rows cost one round trip and one parameter on both
 * engines (JSON.stringify is native; arrays of per-column literals cost twice as long in node-postgres's
 * escaping and its garbage). Rows whose fsq_place_id exists are replaced.
 */
const COLUMNS = [
  ...OS_COLUMNS,
  'fsq_chain_ids',
  'price',
  'rating',
  'popularity',
  'hours',
  'time_zone',
  'search_text',
  'open_week',
  'open_hours',
  'pt',
] as const;

type Column = (typeof COLUMNS)[number];

/** The type of each column in the JSON records (text when not listed). */
const RECORD_TYPE: Partial<Record<Column, string>> = {
  latitude: 'float8',
  longitude: 'float8',
  date_created: 'date',
  date_refreshed: 'date',
  date_closed: 'date',
  fsq_category_ids: 'text[]',
  fsq_category_labels: 'text[]',
  unresolved_flags: 'text[]',
  fsq_chain_ids: 'text[]',
  open_hours: 'text[]',
  price: 'int2',
  rating: 'float4',
  popularity: 'float4',
  hours: 'jsonb',
  pt: 'float8[]',
};

const VALUE: Partial<Record<Column, string>> = {
  open_week: 'r.open_week::int4multirange',
  pt: 'cube(r.pt)',
};

const UPSERT = `
INSERT INTO places (${COLUMNS.join(', ')})
SELECT ${COLUMNS.map((c) => VALUE[c] ?? `r.${c}`).join(', ')}
  FROM json_to_recordset($1::json) AS r(${COLUMNS.map((c) => `${c} ${RECORD_TYPE[c] ?? 'text'}`).join(', ')})
ON CONFLICT (fsq_place_id) DO UPDATE SET
  ${COLUMNS.slice(1)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(',\n  ')}`;

/** What `query` matches: the name, the category names and the chain names, lower-cased. */
export function searchTextOf(record: PlaceRecord, chainNames: readonly string[]): string {
  const categories = record.fsq_category_labels.map((l) => l.split(' > ').pop() ?? '');
  const phone = phoneSearchText(record.tel, record.country);
  return [record.name, ...categories, ...chainNames, ...(phone ? [phone] : [])].join(' | ').toLowerCase();
}

export async function writePlaces(
  db: Queryable,
  records: readonly PlaceRecord[],
  names: PlaceNames,
): Promise<void> {
  if (records.length === 0) return;
  await db.query(UPSERT, [wellFormed(JSON.stringify(placeRows(lastOfEachId(records), names)))]);
}

/** A batch encoded for copyPlaces. */
export interface PlacesCopy {
  records: readonly PlaceRecord[];
  names: PlaceNames;
  /** COPY's text format, as UTF-8. */
  data: Buffer;
  /** The places' rows of places_open_kinds, likewise. */
  openKinds: Buffer;
}

const OPEN_KINDS_COLUMNS = ['fsq_place_id', 'kind', 'span', 'time_zone', 'open_week'] as const;

/**
 * Places encoded for copyPlaces as they come, a line a record (encoding them between reads rather than a whole
 * batch at once keeps the event loop free to feed the COPY being written).
 */
export class PlacesCopyBuilder {
  private records: PlaceRecord[] = [];
  private lines: Buffer[] = [];
  private openKindLines: Buffer[] = [];
  private readonly year = new Date().getUTCFullYear();

  constructor(private readonly names: PlaceNames) {}

  get size(): number {
    return this.records.length;
  }

  add(record: PlaceRecord): void {
    this.records.push(record);
    const d = derived(record, this.names, this.year);
    // Each line to bytes on its own: half the time of encoding one joined string.
    this.lines.push(Buffer.from(`${copyLine(record, d)}\n`));
    const kinds = openKindLines(record, d, this.year);
    if (kinds) this.openKindLines.push(Buffer.from(kinds));
  }

  /** The places added since the last take. */
  take(): PlacesCopy {
    const batch = {
      records: this.records,
      names: this.names,
      data: Buffer.concat(this.lines),
      openKinds: Buffer.concat(this.openKindLines),
    };
    this.records = [];
    this.lines = [];
    this.openKindLines = [];
    return batch;
  }
}

/**
 * A place's rows of places_open_kinds in COPY's text format, as places_open_kinds_of (migration 0019) gives them:
 * one per kind (its categories and their ancestors), none without opening hours.
 */
function openKindLines(r: PlaceRecord, d: ReturnType<typeof derived>, year: number): string | undefined {
  const span = openKindSpan(d.week, r.time_zone, year);
  if (span === undefined) return undefined;
  const [x, y, z] = d.pt;
  const [dayStart, dayStop, weekStart, weekStop] = span;
  const corners = `(${x}, ${y}, ${z}, ${dayStart}, ${weekStart}),(${x}, ${y}, ${z}, ${dayStop}, ${weekStop})`;
  const rest = `\t${corners}\t${copyField(r.time_zone)}\t${copyField(d.open_week)}\n`;
  const id = copyField(r.fsq_place_id);
  let lines = '';
  for (const kind of placeKinds(d.paths)) lines += `${id}\t${openKind(kind)}${rest}`;
  return lines;
}

/**
 * The bulk path of generation and import (inside their transaction): the batch is COPYed, which costs the
 * server ~15 µs a row against 40–90 for the upsert, indexes aside. COPY only inserts, so a batch that meets a
 * place already there (a re-run, a file naming a place twice) is rolled back to a savepoint and written by the
 * upsert instead — the same outcome: the later row wins (as it does for a place named twice in the batch).
 */
export async function copyPlaces(tx: Queryable, batch: PlacesCopy): Promise<void> {
  if (batch.records.length === 0) return;
  // The batch's rows of places_open_kinds are copied too, computed here: the insert trigger of places, which would
  // compute them on the server one place at a time, stands aside while the setting says so (migration 0018).
  await tx.exec(`SAVEPOINT places_copy; SET LOCAL ${OPEN_KINDS_BY} = 'copy'`);
  try {
    await tx.copyIn('places', COLUMNS, batch.data);
    if (batch.openKinds.length > 0) await tx.copyIn('places_open_kinds', OPEN_KINDS_COLUMNS, batch.openKinds);
    await tx.exec(`SET LOCAL ${OPEN_KINDS_BY} = ''; RELEASE SAVEPOINT places_copy`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    await tx.exec('ROLLBACK TO SAVEPOINT places_copy');
    await writePlaces(tx, batch.records, batch.names);
  }
}

const UNIQUE_VIOLATION = '23505';

/** The setting with which copyPlaces writes places_open_kinds itself (rolled back with its savepoint). */
const OPEN_KINDS_BY = 'cairn.places_open_kinds_by';

/**
 * Bulk loads (generation, import) of places take turns, each holding this lock from its first transaction's
 * start to its commit. A load on two connections waits for its other connection outside the database, so two
 * loads writing the same places (the same seed, an import of exported places) could each wait for the other's
 * rows without PostgreSQL seeing a deadlock.
 */
export async function takeBulkLoadTurn(tx: Queryable, engine: Db['engine']): Promise<void> {
  if (engine === 'postgres')
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cairn_places_bulk_load'))`);
}

/**
 * After a bulk load has committed: VACUUM the table now (1–2 s for a million places), so its new rows' hint
 * bits and the visibility map are set by the load, not by the first searches (which would dirty the pages
 * they read) and by the autovacuum the inserts trigger about a minute later, beside the traffic; and take the
 * planner's statistics, which a load on several connections can't take inside its transactions (each sees only
 * its own rows). Outside a transaction (VACUUM can't run in one): inside a caller's (transactionAsDb) it is
 * left to autovacuum.
 */
export async function vacuumAfterBulkLoad(db: Db): Promise<void> {
  if (db.insideTransaction) return;
  await db.exec('VACUUM (ANALYZE) places, places_open_kinds');
}

/** One record per place id, the last of each (a statement may not write one row twice). */
function lastOfEachId(records: readonly PlaceRecord[]): readonly PlaceRecord[] {
  const byId = new Map<string, PlaceRecord>();
  for (const r of records) byId.set(r.fsq_place_id, r);
  return byId.size === records.length ? records : [...byId.values()];
}

/** The columns computed from a record rather than copied from it. */
function derived(r: PlaceRecord, names: PlaceNames, year: number) {
  const chains: string[] = [];
  for (const id of r.fsq_chain_ids) {
    const name = names.chainName(id);
    if (name !== undefined) chains.push(name);
  }
  const week = r.hours && r.hours.length > 0 ? weekIntervals(r.hours) : [];
  const slots = openSlotTokens(week, r.time_zone, year);
  const paths = r.fsq_category_ids.map((id) => names.categoryPath(id) ?? [id]);
  return {
    week,
    paths,
    search_text: searchTextOf(r, chains),
    open_week: week.length > 0 ? multirangeLiteral(week) : null,
    open_hours: slots.length > 0 ? [...slots, ...categorySlotTokens(paths, slots)] : slots,
    pt: earthPoint(r.latitude, r.longitude),
  };
}

/** One row in COPY's text format, the fields in COLUMNS' order (checked by the write tests on both paths). */
function copyLine(r: PlaceRecord, d: ReturnType<typeof derived>): string {
  return [
    copyField(r.fsq_place_id),
    copyField(r.name),
    copyField(r.latitude),
    copyField(r.longitude),
    copyField(r.address),
    copyField(r.locality),
    copyField(r.region),
    copyField(r.postcode),
    copyField(r.admin_region),
    copyField(r.post_town),
    copyField(r.po_box),
    copyField(r.country),
    copyField(r.date_created),
    copyField(r.date_refreshed),
    copyField(r.date_closed),
    copyField(r.tel),
    copyField(r.website),
    copyField(r.email),
    copyField(r.facebook_id),
    copyField(r.instagram),
    copyField(r.twitter),
    copyArrayField(r.fsq_category_ids),
    copyArrayField(r.fsq_category_labels),
    copyField(r.placemaker_url),
    copyArrayField(r.unresolved_flags),
    copyArrayField(r.fsq_chain_ids),
    copyField(r.price),
    copyField(r.rating),
    copyField(r.popularity),
    copyField(r.hours ? JSON.stringify(r.hours) : null),
    copyField(r.time_zone),
    copyField(d.search_text),
    copyField(d.open_week),
    copyArrayField(d.open_hours),
    `(${d.pt[0]}, ${d.pt[1]}, ${d.pt[2]})`,
  ].join('\t');
}

function placeRows(records: readonly PlaceRecord[], names: PlaceNames) {
  // One object literal of one shape for every row: JSON.stringify's fast path (a spread of the record is
  // twice as slow).
  const year = new Date().getUTCFullYear();
  return records.map((r) => {
    const d = derived(r, names, year);
    return {
      fsq_place_id: r.fsq_place_id,
      name: r.name,
      latitude: r.latitude,
      longitude: r.longitude,
      address: r.address,
      locality: r.locality,
      region: r.region,
      postcode: r.postcode,
      admin_region: r.admin_region,
      post_town: r.post_town,
      po_box: r.po_box,
      country: r.country,
      date_created: r.date_created,
      date_refreshed: r.date_refreshed,
      date_closed: r.date_closed,
      tel: r.tel,
      website: r.website,
      email: r.email,
      facebook_id: r.facebook_id,
      instagram: r.instagram,
      twitter: r.twitter,
      fsq_category_ids: r.fsq_category_ids,
      fsq_category_labels: r.fsq_category_labels,
      placemaker_url: r.placemaker_url,
      unresolved_flags: r.unresolved_flags,
      fsq_chain_ids: r.fsq_chain_ids,
      price: r.price,
      rating: r.rating,
      popularity: r.popularity,
      hours: r.hours,
      time_zone: r.time_zone,
      search_text: d.search_text,
      open_week: d.open_week,
      open_hours: d.open_hours,
      pt: d.pt,
    } satisfies Record<Column, unknown>;
  });
}

/**
 * JSON.stringify writes a lone surrogate as an escape (\udXXX), which PostgreSQL's JSON refuses; as text over
 * the wire it would have become U+FFFD, so it becomes that here. Escaped backslashes are matched pairwise so
 * that `\\ud800` (a backslash, then text) is left alone.
 */
function wellFormed(json: string): string {
  if (!json.includes('\\ud')) return json;
  return json.replace(/\\(?:\\|u[dD][89a-fA-F][0-9a-fA-F]{2})/g, (m) => (m === '\\\\' ? m : '\\ufffd'));
}
