import { createReadStream } from 'node:fs';

/**
 * An RFC 4180 CSV reader: quoted fields may hold commas, quotes ("") and line breaks. Yields each record with
 * the line number it starts on, so a bad row is reported where an editor shows it.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export async function* readCsv(path: string): AsyncGenerator<CsvRecord> {
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let pendingCr = false;
  let started = false;
  // Runs of ordinary characters are taken as slices between the special ones (a character at a time would
  // build a string per character: most of the import's time went to collecting that garbage).
  const special = /[,\n\r"]/g;

  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    const n = text.length;
    const out: CsvRecord[] = [];
    let i = 0;
    while (i < n) {
      if (pendingCr) {
        pendingCr = false;
        if (text.charCodeAt(i) === LF) {
          i++;
          continue;
        }
      }
      if (quoted) {
        const q = text.indexOf('"', i);
        const end = q === -1 ? n : q;
        for (let k = text.indexOf('\n', i); k !== -1 && k < end; k = text.indexOf('\n', k + 1)) line++;
        if (end > i) field += text.slice(i, end);
        if (q === -1) break;
        if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          i = q + 2;
        } else {
          // A closing quote, or one at the end of a chunk: the next chunk's first character decides.
          quoted = false;
          afterQuote = true;
          i = q + 1;
        }
        continue;
      }
      const ch = text.charCodeAt(i);
      if (afterQuote && ch === QUOTE) {
        // The escaped quote was split across chunks.
        field += '"';
        quoted = true;
        afterQuote = false;
        i++;
        continue;
      }
      afterQuote = false;
      special.lastIndex = i;
      const match = special.exec(text);
      const j = match ? match.index : n;
      if (j > i) {
        field += text.slice(i, j);
        started = true;
        i = j;
        if (!match) break;
      }
      const c = text.charCodeAt(i);
      i++;
      if (c === QUOTE) {
        if (field === '') quoted = true;
        else field += '"';
        started = true;
      } else if (c === COMMA) {
        fields.push(field);
        field = '';
        started = true;
      } else {
        fields.push(field);
        if (started || fields.length > 1 || fields[0] !== '') out.push({ line: recordLine, fields });
        fields = [];
        field = '';
        started = false;
        line++;
        recordLine = line;
        if (c === CR) pendingCr = true;
      }
    }
    yield* out;
  }
  if (started || field !== '' || fields.length > 0) {
    fields.push(field);
    yield { line: recordLine, fields };
  }
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
