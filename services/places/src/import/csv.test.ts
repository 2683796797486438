import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CsvRecord, readCsv } from './csv.ts';

/** readCsv reads 1 MiB chunks: with ASCII text, character 2^20 - 1 is the last of the first chunk. */
const CHUNK = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'cairn-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(text: string): Promise<CsvRecord[]> {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  const records: CsvRecord[] = [];
  for await (const record of readCsv(path)) records.push(record);
  return records;
}

/** Filler lines, then `tail` placed so that its character at `at` is the first chunk's last character. */
function straddling(tail: string, at: number): { text: string; fillerLines: number } {
  const room = CHUNK - 1 - at;
  const line = 'x,y\n';
  const fillerLines = Math.floor(room / line.length) - 1;
  const pad = room - fillerLines * line.length - 1;
  return { text: `${line.repeat(fillerLines)}${'z'.repeat(pad)}\n${tail}`, fillerLines: fillerLines + 1 };
}

describe('readCsv across chunk boundaries', () => {
  for (const [what, tail, at, fields] of [
    [
      'an escaped quote split between its two quotes',
      'a,"say ""hi"" now",b\n',
      7,
      ['a', 'say "hi" now', 'b'],
    ],
    ['a closing quote at the end of a chunk', 'a,"quoted",b\n', 9, ['a', 'quoted', 'b']],
    ['CR LF split between CR and LF', 'a,b\r\nc,d\r\n', 3, ['a', 'b']],
    ['a line break inside quotes at the end of a chunk', 'a,"two\nlines",b\n', 6, ['a', 'two\nlines', 'b']],
  ] as const) {
    it(`keeps ${what}`, async () => {
      const { text, fillerLines } = straddling(tail, at);
      expect(text[CHUNK - 1]).toBe(tail[at]);
      const records = await read(text);
      const mine = records[fillerLines]!;
      expect(mine).toEqual({ line: fillerLines + 1, fields: [...fields] });
      expect(records.slice(0, fillerLines).every((r) => r.fields.length === 2 || r.fields.length === 1)).toBe(
        true,
      );
      if (tail.startsWith('a,b\r\n'))
        expect(records[fillerLines + 1]).toEqual({ line: fillerLines + 2, fields: ['c', 'd'] });
      // The record after a multi-line one starts on the right line.
      expect(records).toHaveLength(fillerLines + (tail.startsWith('a,b\r\n') ? 2 : 1));
    });
  }

  it('ends a file without a final line break with its last record', async () => {
    expect(await read('a,b\n"c\nd",e')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['c\nd', 'e'] },
    ]);
  });
});
