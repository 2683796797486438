import { findMultipartBoundary, parseMultipartDisposition } from '@cairn/seclang';

/**
 * What the WAF inspects of a multipart/form-data body, as ModSecurity counts it
 * (SecRequestBodyNoFilesLimit): the body with the contents of its file parts left out. Every other byte
 * stays, in place: the preamble, every delimiter line, every part's header lines (field names, file
 * names, content types) and every non-file part's value. The engines parse this view with their own
 * multipart parsers and see each file part as a file with an empty content.
 *
 * A part is a file when its Content-Disposition has a `filename` parameter (as in ModSecurity, and as
 * origins read it). Only unambiguous parts are elided: a single Content-Disposition line that parses
 * without a quoting oddity, among well-formed header lines. The elided content runs up to the next line
 * that starts with the boundary in any form (`--b`, `--"b"`, followed by anything), so no line an origin
 * could take for a delimiter is ever left out. A Content-Type whose boundary another parser could read
 * differently (two boundary parameters, whitespace around `=`, characters outside RFC 2046's) gets no
 * view at all: the body is inspected as sent, up to the inspection limit.
 */
export interface MultipartView {
  /** The view, at most `limit` bytes. */
  head: Buffer;
  /** The view is longer than `limit`: fields or headers past it were not inspected. */
  cut: boolean;
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]{1,70}$/;
const QUOTED = /^[A-Za-z0-9'()+_,\-./:=? ]{0,69}[A-Za-z0-9'()+_,\-./:=?]$/;
const HEADER_LINE = /^[A-Za-z0-9!#$%&'*+.^_`|~][A-Za-z0-9!#$%&'*+\-.^_`|~]*:/;
const DISPOSITION = /^content-disposition:/i;

/** The Content-Type of a request that is multipart/form-data, when it has exactly one Content-Type line. */
export function formDataContentType(rawHeaders: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== 'content-type') continue;
    if (found !== undefined) return undefined; // which one would the origin read?
    found = rawHeaders[i + 1] as string;
  }
  return found !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(found) ? found : undefined;
}

function boundaryOf(contentType: string): Buffer | undefined {
  // one boundary parameter (a second, or one inside another parameter's quoted value, is refused)
  if ((contentType.match(/;\s*boundary\s*=/gi) ?? []).length !== 1) return undefined;
  const b = findMultipartBoundary(contentType);
  if (!b || b.whitespace || !(b.quoted ? QUOTED : TOKEN).test(b.value)) return undefined;
  return Buffer.from(b.value, 'latin1');
}

interface DelimiterLine {
  /** Where the line starts (its `--`). */
  start: number;
  /** Just past its line break (or the body's end). */
  end: number;
  /** `--b` followed by blanks only: a part begins. */
  opening: boolean;
  /** `--b--`: the body ends. */
  closing: boolean;
}

const atLineStart = (body: Buffer, i: number) => i === 0 || body[i - 1] === 10 || body[i - 1] === 13;

/** The next line from `from` that starts with `--b` or `--"b"`. */
function nextDelimiterLine(body: Buffer, boundary: Buffer, from: number): DelimiterLine | undefined {
  for (let at = body.indexOf(boundary, from + 2); at >= 0; at = body.indexOf(boundary, at + 1)) {
    let start = -1;
    if (at >= 2 && body[at - 1] === 45 && body[at - 2] === 45 && atLineStart(body, at - 2)) start = at - 2;
    else if (at >= 3 && body[at - 1] === 34 && body[at - 2] === 45 && body[at - 3] === 45)
      start = atLineStart(body, at - 3) ? at - 3 : -1;
    if (start < from) continue;
    const rest = at + boundary.length;
    const nl = body.indexOf(10, rest);
    const end = nl < 0 ? body.length : nl + 1;
    const text = body.toString('latin1', rest, Math.min(end, rest + 80));
    const quoted = start === at - 3;
    return {
      start,
      end,
      opening: !quoted && /^[ \t]*\r?\n?$/.test(text),
      closing: !quoted && text.startsWith('--'),
    };
  }
  return undefined;
}

type HeaderBlock =
  | { lines: string[]; end: number }
  /** A line that is no header line (folding, a delimiter, no name) starts at `at`. */
  | { invalidAt: number };

/**
 * The header lines from `from` up to the blank line ending them, if they are well formed; undefined
 * when no blank line comes before `max` or the body's end.
 */
function headerBlock(body: Buffer, from: number, max: number): HeaderBlock | undefined {
  const lines: string[] = [];
  for (let at = from; at < max; ) {
    const nl = body.indexOf(10, at);
    if (nl < 0 || nl >= max) return undefined;
    const textEnd = nl > at && body[nl - 1] === 13 ? nl - 1 : nl;
    if (textEnd === at) return { lines, end: nl + 1 };
    const line = body.toString('latin1', at, textEnd);
    if (!HEADER_LINE.test(line)) return { invalidAt: at };
    lines.push(line);
    at = nl + 1;
  }
  return undefined;
}

function isFilePart(lines: readonly string[]): boolean {
  const dispositions = lines.filter((l) => DISPOSITION.test(l));
  if (dispositions.length !== 1) return false;
  let odd = false;
  const d = parseMultipartDisposition((dispositions[0] as string).slice(20), () => {
    odd = true;
  });
  return !odd && d?.name !== undefined && d.filename !== undefined;
}

/** Where the content before the delimiter line at `start` ends (its line break belongs to the delimiter). */
function contentEnd(body: Buffer, start: number, min: number): number {
  let end = start;
  if (end > min && body[end - 1] === 10) end--;
  if (end > min && body[end - 1] === 13) end--;
  return end;
}

/**
 * The inspected view of a multipart/form-data body (see MultipartView), or undefined when its
 * Content-Type gives no boundary that every parser reads the same. Linear in the body's size; stops as
 * soon as the view passes `limit`.
 */
export function multipartView(body: Buffer, contentType: string, limit: number): MultipartView | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const kept: Buffer[] = [];
  let size = 0; // bytes in `kept`
  let keptFrom = 0; // the start of the bytes kept since the last elided content
  for (let at = 0; ; ) {
    const line = nextDelimiterLine(body, boundary, at);
    if (!line || line.closing) break; // the rest is kept: the epilogue, or data of no part
    at = line.end;
    const room = limit - size - (line.end - keptFrom);
    if (room < 0) break; // the view is already longer than the limit
    if (!line.opening) continue;
    const headers = headerBlock(body, line.end, Math.min(body.length, line.end + room + 2));
    // No blank line within the room: any later part's headers run into the same lines, and the view
    // passes the limit.
    if (!headers) break;
    // A delimiter line found within the header lines has the same lines after it: scan on from the
    // line that ended them, not from each candidate between (linear, not quadratic, in the headers).
    if ('invalidAt' in headers) {
      at = headers.invalidAt;
      continue;
    }
    at = headers.end;
    if (!isFilePart(headers.lines)) continue;
    const next = nextDelimiterLine(body, boundary, headers.end);
    const end = next ? contentEnd(body, next.start, headers.end) : body.length;
    kept.push(body.subarray(keptFrom, headers.end));
    size += headers.end - keptFrom;
    keptFrom = end;
    at = end;
  }
  kept.push(body.subarray(keptFrom));
  size += body.length - keptFrom;
  const view = Buffer.concat(kept, Math.min(size, limit + 1));
  return view.length > limit ? { head: view.subarray(0, limit), cut: true } : { head: view, cut: false };
}
