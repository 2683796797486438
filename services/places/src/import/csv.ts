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

  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    const out: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (pendingCr) {
        pendingCr = false;
        if (ch === '\n') continue;
      }
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else if (i + 1 === text.length) {
            // A quote at the end of a chunk: decide with the next chunk's first character.
            quoted = false;
            afterQuote = true;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (ch === '\n') line++;
          field += ch;
        }
        continue;
      }
      if (afterQuote && ch === '"') {
        // The escaped quote was split across chunks.
        field += '"';
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (ch === '"' && field === '') {
        quoted = true;
        started = true;
      } else if (ch === ',') {
        fields.push(field);
        field = '';
        started = true;
      } else if (ch === '\n' || ch === '\r') {
        fields.push(field);
        if (started || fields.length > 1 || fields[0] !== '') out.push({ line: recordLine, fields });
        fields = [];
        field = '';
        started = false;
        line++;
        recordLine = line;
        if (ch === '\r') pendingCr = true;
      } else {
        field += ch;
        started = true;
      }
    }
    yield* out;
  }
  if (started || field !== '' || fields.length > 0) {
    fields.push(field);
    yield { line: recordLine, fields };
  }
}
