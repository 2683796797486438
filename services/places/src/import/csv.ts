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
  const parser = new CsvParser();
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    yield* parser.push(chunk as string);
  }
  const last = parser.finish();
  if (last) yield last;
}

/**
 * The reader's state across chunks: a chunk may end anywhere — inside quotes, between the two quotes of an
 * escaped one, between CR and LF. Runs of ordinary characters are taken as slices between the special ones
 * (a character at a time would build a string per character: most of the import's time went to collecting
 * that garbage).
 */
class CsvParser {
  private field = '';
  private fields: string[] = [];
  private quoted = false;
  /** The last chunk ended on a quote inside a quoted field: closing, or the first of an escaped "". */
  private afterQuote = false;
  private line = 1;
  private recordLine = 1;
  private pendingCr = false;
  /** The record has content (a record that is one empty field is an empty line, skipped). */
  private started = false;
  private readonly special = /[,\n\r"]/g;

  /** The records this chunk completes. */
  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let i = this.pendingCr && text.charCodeAt(0) === LF ? 1 : 0;
    this.pendingCr = false;
    while (i < text.length) i = this.quoted ? this.quotedRun(text, i) : this.plainRun(text, i, out);
    return out;
  }

  /** The record the file ends in without a line break, if any. */
  finish(): CsvRecord | undefined {
    if (!this.started && this.field === '' && this.fields.length === 0) return undefined;
    this.fields.push(this.field);
    return { line: this.recordLine, fields: this.fields };
  }

  /** Inside quotes, up to the next quote: "" is a quote, a lone one closes the quotes. */
  private quotedRun(text: string, i: number): number {
    const n = text.length;
    const q = text.indexOf('"', i);
    const end = q === -1 ? n : q;
    for (let k = text.indexOf('\n', i); k !== -1 && k < end; k = text.indexOf('\n', k + 1)) this.line++;
    if (end > i) this.field += text.slice(i, end);
    if (q === -1) return n;
    if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
      this.field += '"';
      return q + 2;
    }
    // A closing quote, or one at the end of a chunk: the next chunk's first character decides.
    this.quoted = false;
    this.afterQuote = true;
    return q + 1;
  }

  /** Outside quotes: the run of ordinary characters, then the special character that ends it. */
  private plainRun(text: string, i: number, out: CsvRecord[]): number {
    if (this.afterQuote) {
      this.afterQuote = false;
      if (text.charCodeAt(i) === QUOTE) {
        // The escaped quote was split across chunks.
        this.field += '"';
        this.quoted = true;
        return i + 1;
      }
    }
    this.special.lastIndex = i;
    const match = this.special.exec(text);
    if (!match) {
      this.field += text.slice(i);
      this.started = true;
      return text.length;
    }
    const j = match.index;
    if (j > i) {
      this.field += text.slice(i, j);
      this.started = true;
    }
    return this.separator(text, j, out);
  }

  /** A quote, a comma or a line break outside quotes. */
  private separator(text: string, at: number, out: CsvRecord[]): number {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      if (this.field === '') this.quoted = true;
      else this.field += '"';
      this.started = true;
    } else if (c === COMMA) {
      this.fields.push(this.field);
      this.field = '';
      this.started = true;
    } else {
      this.endRecord(out);
      if (c === CR) return this.afterCr(text, at + 1);
    }
    return at + 1;
  }

  private endRecord(out: CsvRecord[]) {
    this.fields.push(this.field);
    if (this.started || this.fields.length > 1 || this.fields[0] !== '') {
      out.push({ line: this.recordLine, fields: this.fields });
    }
    this.fields = [];
    this.field = '';
    this.started = false;
    this.line++;
    this.recordLine = this.line;
  }

  /** CR LF is one line break; a CR at the end of a chunk waits for the next chunk's first character. */
  private afterCr(text: string, i: number): number {
    if (i >= text.length) this.pendingCr = true;
    else if (text.charCodeAt(i) === LF) return i + 1;
    return i;
  }
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
