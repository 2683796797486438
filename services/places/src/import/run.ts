import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { badRequest, type Db, type Queryable } from '@cairn/kit';
import type { PlaceRecord } from '../data/place-record.ts';
import { DATASET_COLUMNS } from '../data/place-record.ts';
import { type Category, pluralOf } from '../reference/category.ts';
import { hexId } from '../reference/ids.ts';
import { ensureReferenceData } from '../reference/reference.ts';
import { insertPhotos, insertTips } from '../store/media.ts';
import {
  copyPlaces,
  PlacesCopyBuilder,
  takeBulkLoadTurn,
  vacuumAfterBulkLoad,
} from '../store/places-write.ts';
import { loadCategories, upsertCategories } from '../store/reference.ts';
import { readCsv } from './csv.ts';
import { MEDIA_COLUMNS, mediaOfRow, type RowMedia } from './media.ts';
import { parquetColumns, readParquet } from './parquet.ts';
import { BadRow, REQUIRED_COLUMNS, type RowValue, toPlaceRecord } from './row.ts';

/**
 * `cairn places import FILE`: the open places dataset's own files, Parquet or CSV, with its column names.
 * All or nothing: every good row is written in one transaction, or none is. Bad rows are counted and
 * reported by row (Parquet) or line (CSV) number; with `maxBad` exceeded the whole import is rolled back.
 */
export interface ImportOptions {
  /** Refuse the import (roll back) when more rows than this are bad; default: no limit. */
  maxBad?: number;
  batchSize?: number;
  onProgress?: (rows: number) => void;
}

export interface BadRowReport {
  /** "line 12" (CSV) or "row 12" (Parquet). */
  where: string;
  reason: string;
}

export interface ImportResult {
  format: 'parquet' | 'csv';
  imported: number;
  bad: number;
  /** The first 100 bad rows. */
  badRows: BadRowReport[];
  categoriesAdded: number;
  ms: number;
}

/** Rows read between turns of the event loop. */
const YIELD_EVERY = 250;

/** Rows from which an import is a bulk load: vacuumed and analyzed once committed. */
const BULK_IMPORT = 50_000;

interface SourceRow {
  where: string;
  values: Record<string, RowValue>;
}

async function formatOf(path: string): Promise<'parquet' | 'csv'> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw badRequest(`Cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.toString('latin1') === 'PAR1') return 'parquet';
  } finally {
    await handle.close();
  }
  if (['.parquet', '.pq'].includes(extname(path).toLowerCase())) {
    throw badRequest(`${path} is named like a Parquet file but does not start with the Parquet magic bytes`);
  }
  return 'csv';
}

function checkColumns(path: string, columns: readonly string[]) {
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    throw badRequest(
      `${path} lacks the column(s) ${missing.join(', ')}; expected the open places dataset's columns (${DATASET_COLUMNS.join(', ')})`,
    );
  }
}

async function* sourceRows(path: string, format: 'parquet' | 'csv'): AsyncGenerator<SourceRow> {
  if (format === 'parquet') {
    checkColumns(path, await parquetColumns(path));
    for await (const { row, values } of readParquet(path, [...DATASET_COLUMNS, ...MEDIA_COLUMNS]))
      yield { where: `row ${row}`, values };
    return;
  }
  let header: string[] | undefined;
  for await (const record of readCsv(path)) {
    if (!header) {
      header = record.fields.map((f, i) => (i === 0 ? f.replace(/^\uFEFF/, '') : f).trim());
      checkColumns(path, header);
      continue;
    }
    if (record.fields.length !== header.length) {
      yield {
        where: `line ${record.line}`,
        values: { __error: `has ${record.fields.length} fields; the header has ${header.length}` },
      };
      continue;
    }
    const values: Record<string, RowValue> = {};
    header.forEach((name, i) => {
      values[name] = record.fields[i];
    });
    yield { where: `line ${record.line}`, values };
  }
  if (!header) throw badRequest(`${path} is empty; expected a header line with the dataset's column names`);
}

/** Categories named by imported rows that the taxonomy does not have, with their labels' levels. */
function categoriesFrom(records: Iterable<PlaceRecord>, known: Map<string, Category>) {
  for (const r of records) {
    r.fsq_category_ids.forEach((id, i) => {
      const label = r.fsq_category_labels[i];
      if (known.has(id) || !label) return;
      const names = label
        .split(' > ')
        .map((s) => s.trim())
        .slice(0, 6);
      const name = names[names.length - 1]!;
      const path = names.map((n, level) => ({
        id: level === names.length - 1 ? id : hexId('category-label', names.slice(0, level + 1).join(' > ')),
        name: n,
      }));
      known.set(id, {
        id,
        level: names.length,
        name,
        label: names.join(' > '),
        parentId: null,
        shortName: name,
        pluralName: pluralOf(name),
        icon: null,
        source: 'import',
        path,
      });
    });
  }
}

async function writeMedia(tx: Queryable, media: readonly RowMedia[]) {
  if (media.length === 0) return;
  await insertTips(
    tx,
    media.flatMap((m) => m.tips),
  );
  await insertPhotos(
    tx,
    media.flatMap((m) => m.photos),
  );
}

export async function importPlacesFile(
  db: Db,
  path: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const started = performance.now();
  const format = await formatOf(path);
  await ensureReferenceData(db);
  const maxBad = options.maxBad ?? Number.POSITIVE_INFINITY;
  const batchSize = options.batchSize ?? 5000;
  const result: ImportResult = { format, imported: 0, bad: 0, badRows: [], categoriesAdded: 0, ms: 0 };
  const newCategories = new Map<string, Category>();
  const existing = await loadCategories(db);
  const seen = new Map<string, Category>(existing.map((c) => [c.id, {} as Category]));
  // Categories new in the file have no parent in the taxonomy: their places' tokens name them alone.
  const paths = new Map(existing.map((c) => [c.id, c.path.map((step) => step.id)]));

  // One transaction (all or nothing) of COPYs, the indexes kept up to date row by row: their upkeep costs the
  // server about what building them afterwards would, and it runs while the file is read.
  await db.transaction(async (tx) => {
    await takeBulkLoadTurn(tx, db.engine);
    // Rows are encoded for COPY as they are read (see PlacesCopyBuilder).
    const batch = new PlacesCopyBuilder({ chainName: () => undefined, categoryPath: (id) => paths.get(id) });
    // Tips and photos of the batch's rows, where the file has them (import/media.ts).
    let media: RowMedia[] = [];
    let rows = 0;
    // The file is read on while the database writes the previous batch.
    let writing: Promise<void> | undefined;
    const flush = async () => {
      const encoded = batch.take();
      const before = seen.size;
      categoriesFrom(encoded.records, seen);
      if (seen.size > before) {
        for (const [id, c] of seen)
          if (c.source === 'import' && !newCategories.has(id)) newCategories.set(id, c);
      }
      await writing;
      const batchMedia = media;
      writing = copyPlaces(tx, encoded).then(() => writeMedia(tx, batchMedia));
      media = [];
      writing.catch(() => undefined); // awaited by the next flush or at the end
      result.imported += encoded.records.length;
    };
    try {
      for await (const source of sourceRows(path, format)) {
        rows++;
        try {
          if (typeof source.values.__error === 'string') throw new BadRow(source.values.__error);
          const record = toPlaceRecord(source.values);
          const rowMedia = mediaOfRow(record.fsq_place_id, source.values);
          batch.add(record);
          if (rowMedia.tips.length > 0 || rowMedia.photos.length > 0) media.push(rowMedia);
        } catch (error) {
          if (!(error instanceof BadRow)) throw error;
          result.bad++;
          if (result.badRows.length < 100)
            result.badRows.push({ where: source.where, reason: error.message });
          if (result.bad > maxBad) {
            throw badRequest(
              `Import refused, nothing was written: more than ${maxBad} bad row(s); the first: ${result.badRows
                .slice(0, 5)
                .map((b) => `${b.where}: ${b.reason}`)
                .join('; ')}`,
            );
          }
        }
        if (batch.size >= batchSize) await flush();
        // A turn of the event loop now and then: the COPY being written is fed between reads (a 1 MB chunk of
        // the file is ~3,000 rows, read and encoded without one otherwise, while the database waits for data).
        if (rows % YIELD_EVERY === 0) await setImmediate();
        if (rows % 50_000 === 0) options.onProgress?.(rows);
      }
      await flush();
      await writing;
    } catch (error) {
      // The batch being written is let finish first: a write that reached the connection after the ROLLBACK
      // would run outside the transaction, on a connection already returned to the pool.
      await writing?.catch(() => undefined);
      throw error;
    }
    await upsertCategories(tx, [...newCategories.values()], false);
  });
  if (result.imported >= BULK_IMPORT) await vacuumAfterBulkLoad(db);
  result.categoriesAdded = newCategories.size;
  result.ms = performance.now() - started;
  return result;
}
