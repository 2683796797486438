import type { Queryable } from '@cairn/kit';
import { cubeLiteral } from '../data/earth.ts';
import { multirangeLiteral, weekIntervals } from '../data/hours.ts';
import { OS_COLUMNS, type PlaceRecord } from '../data/place-record.ts';

/**
 * The one write path for places (generator, importer, demo seed): a batch is one statement over unnest() of
 * one array per column, so thousands of rows cost one round trip on both engines. Array and JSON columns
 * travel as their text forms. Rows whose fsq_place_id exists are replaced.
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
  'pt',
] as const;

type Column = (typeof COLUMNS)[number];

const ELEMENT_TYPE: Partial<Record<Column, string>> = {
  latitude: 'float8',
  longitude: 'float8',
  date_created: 'date',
  date_refreshed: 'date',
  date_closed: 'date',
  price: 'int2',
  rating: 'float4',
  popularity: 'float4',
};

const CAST: Partial<Record<Column, string>> = {
  fsq_category_ids: 'text[]',
  fsq_category_labels: 'text[]',
  unresolved_flags: 'text[]',
  fsq_chain_ids: 'text[]',
  hours: 'jsonb',
  open_week: 'int4multirange',
  pt: 'cube',
};

const UPSERT = `
INSERT INTO places (${COLUMNS.join(', ')})
SELECT ${COLUMNS.map((c) => (CAST[c] ? `r.${c}::${CAST[c]}` : `r.${c}`)).join(', ')}
  FROM unnest(${COLUMNS.map((c, i) => `$${i + 1}::${ELEMENT_TYPE[c] ?? 'text'}[]`).join(', ')})
    AS r(${COLUMNS.join(', ')})
ON CONFLICT (fsq_place_id) DO UPDATE SET
  ${COLUMNS.slice(1)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(',\n  ')}`;

/** A text[] literal: every element quoted, so commas, braces and quotes inside survive. */
export function textArrayLiteral(items: readonly string[]): string {
  return `{${items.map((s) => `"${s.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** What `query` matches: the name, the category names and the chain names, lower-cased. */
export function searchTextOf(record: PlaceRecord, chainNames: readonly string[]): string {
  const categories = record.fsq_category_labels.map((l) => l.split(' > ').pop() ?? '');
  return [record.name, ...categories, ...chainNames].join(' | ').toLowerCase();
}

export async function writePlaces(
  db: Queryable,
  records: readonly PlaceRecord[],
  chainName: (id: string) => string | undefined,
): Promise<void> {
  if (records.length === 0) return;
  const columns = COLUMNS.map(() => new Array<unknown>(records.length));
  records.forEach((r, i) => {
    const chains = r.fsq_chain_ids.map(chainName).filter((n): n is string => n !== undefined);
    const derived: Record<'hours' | 'search_text' | 'open_week' | 'pt', unknown> = {
      hours: r.hours ? JSON.stringify(r.hours) : null,
      search_text: searchTextOf(r, chains),
      open_week: r.hours && r.hours.length > 0 ? multirangeLiteral(weekIntervals(r.hours)) : null,
      pt: cubeLiteral(r.latitude, r.longitude),
    };
    COLUMNS.forEach((c, j) => {
      const value = c in derived ? derived[c as keyof typeof derived] : r[c as keyof PlaceRecord];
      columns[j]![i] = Array.isArray(value) ? textArrayLiteral(value as string[]) : value;
    });
  });
  await db.query(UPSERT, columns);
}
