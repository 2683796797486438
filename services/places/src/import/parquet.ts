import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { RowValue } from './row.ts';

/**
 * Reads a Parquet file (the dataset ships zstd- or snappy-compressed files) in slices of rows, so a file of
 * millions of rows never sits in memory whole. Yields rows with their 1-based row number.
 */
export async function* readParquet(
  path: string,
  columns: readonly string[],
  sliceRows = 20_000,
): AsyncGenerator<{ row: number; values: Record<string, RowValue> }> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const present = new Set(metadata.schema.map((s) => s.name));
  const wanted = columns.filter((c) => present.has(c));
  const total = Number(metadata.num_rows);
  for (let start = 0; start < total; start += sliceRows) {
    const rows = await parquetReadObjects({
      file,
      metadata,
      columns: wanted,
      rowStart: start,
      rowEnd: Math.min(total, start + sliceRows),
      compressors,
    });
    for (let i = 0; i < rows.length; i++)
      yield { row: start + i + 1, values: rows[i] as Record<string, RowValue> };
  }
}

export async function parquetColumns(path: string): Promise<string[]> {
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  return metadata.schema.slice(1).map((s) => s.name);
}

export async function parquetRowCount(path: string): Promise<number> {
  return Number((await parquetMetadataAsync(await asyncBufferFromFile(path))).num_rows);
}
