// MULTIPART: `multipart/form-data` bodies. Fields become ARGS_POST, file parts FILES (field → file
// name) and FILES_SIZES; every part's header lines go to MULTIPART_PART_HEADERS. The strictness
// checks set the MULTIPART_* flags that MULTIPART_STRICT_ERROR summarises. Everything but the
// file parts' data counts toward SecRequestBodyNoFilesLimit: past it no further field is read.
import { EntryList } from '../engine/collections/entry-list.ts';
import type { BodyParser, BodyResult } from './types.ts';

const FILE_LIMIT = 100;

interface Boundary {
  value: string;
  quoted: boolean;
  whitespace: boolean;
}

function findBoundary(contentType: string): Boundary | undefined {
  const m = /;\s*boundary(\s*)=(\s*)("([^"]*)"|[^;,\s]*)/i.exec(contentType);
  if (!m) return undefined;
  const quoted = m[3]!.startsWith('"');
  const value = quoted ? m[4]! : m[3]!;
  if (value.length === 0 || value.length > 70 || /[^\x20-\x7e]/.test(value)) return undefined;
  return { value, quoted, whitespace: m[1]!.length > 0 || m[2]!.length > 0 };
}

interface Disposition {
  name: string | undefined;
  filename: string | undefined;
}

/** Parses `form-data; name="a"; filename="b"`, raising quoting flags. */
function parseDisposition(value: string, flag: (f: string) => void): Disposition | undefined {
  const m = /^\s*form-data\s*/i.exec(value);
  if (!m) return undefined;
  const out: Disposition = { name: undefined, filename: undefined };
  let i = m[0].length;
  while (i < value.length) {
    if (value[i] === ';') i++;
    else flag('MULTIPART_MISSING_SEMICOLON');
    while (value[i] === ' ' || value[i] === '\t') i++;
    if (i >= value.length) break;
    const eq = value.indexOf('=', i);
    if (eq < 0) return undefined;
    const param = value.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    while (value[i] === ' ' || value[i] === '\t') i++;
    let v = '';
    if (value[i] === '"') {
      i++;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === '\\') {
          if (value[i + 1] === '"' || value[i + 1] === '\\') i++;
          else flag('MULTIPART_INVALID_QUOTING');
        }
        v += value[i++];
      }
      if (i >= value.length) return undefined;
      i++;
    } else {
      if (value[i] === "'") flag('MULTIPART_INVALID_QUOTING');
      while (i < value.length && value[i] !== ';' && value[i] !== ' ' && value[i] !== '\t') v += value[i++];
      while (value[i] === ' ' || value[i] === '\t') i++;
    }
    if (param === 'name') {
      if (out.name !== undefined) return undefined;
      out.name = v;
    } else if (param === 'filename') {
      if (out.filename !== undefined) return undefined;
      out.filename = v;
    }
  }
  return out;
}

interface Line {
  text: string;
  crlf: boolean;
}

function splitLines(body: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = body.indexOf('\n', start);
    if (nl < 0) {
      lines.push({ text: body.slice(start), crlf: false });
      return lines;
    }
    const crlf = nl > start && body.charCodeAt(nl - 1) === 13;
    lines.push({ text: body.slice(start, crlf ? nl - 1 : nl), crlf });
    start = nl + 1;
  }
}

export function parseMultipart(
  body: string,
  contentType: string,
  argumentsLimit: number,
  noFilesLimit = Number.POSITIVE_INFINITY,
): BodyResult {
  const flags = new Map<string, number>();
  const flag = (f: string) => flags.set(f, 1);
  const result: BodyResult = {
    args: new EntryList(),
    files: new EntryList(),
    filesSizes: new EntryList(),
    filesCombinedSize: 0,
    partHeaders: new EntryList(),
    flags,
  };
  const boundary = findBoundary(contentType);
  if (!boundary) {
    flag('MULTIPART_STRICT_ERROR');
    return { ...result, error: 'Multipart: invalid boundary in Content-Type' };
  }
  if (boundary.quoted) flag('MULTIPART_BOUNDARY_QUOTED');
  if (boundary.whitespace) flag('MULTIPART_BOUNDARY_WHITESPACE');
  const delimiter = `--${boundary.value}`;
  let state: 'preamble' | 'headers' | 'data' | 'epilogue' = 'preamble';
  let crlfSeen = false;
  let lfSeen = false;
  let headers: string[] = [];
  let data: string[] = [];
  let error: string | undefined;
  let files = 0;
  let fileBytes = 0;
  let lineStart = 0; // bytes read, up to the end of the current line

  const finishPart = (): void => {
    const raw = headers;
    const folded: string[] = [];
    for (const h of raw) {
      if (/^[ \t]/.test(h) && folded.length > 0) {
        flag('MULTIPART_HEADER_FOLDING');
        folded[folded.length - 1] += h.trimStart();
      } else folded.push(h);
    }
    const cd = folded.find((h) => /^content-disposition\s*:/i.test(h));
    const disposition = cd ? parseDisposition(cd.slice(cd.indexOf(':') + 1), flag) : undefined;
    if (!disposition || disposition.name === undefined) {
      flag('MULTIPART_INVALID_PART');
      error ??= 'Multipart: invalid Content-Disposition header';
      return;
    }
    const name = disposition.name;
    for (const h of folded) result.partHeaders!.add(name, h);
    const value = data.join('');
    result.lastName = name;
    if (disposition.filename !== undefined) fileBytes += value.length;
    // Bytes read so far that are not file data: delimiters, part headers, fields.
    if (lineStart - fileBytes > noFilesLimit) result.noFilesLimitExceeded = true;
    if (result.noFilesLimitExceeded) return;
    if (disposition.filename !== undefined) {
      if (++files > FILE_LIMIT) {
        flag('MULTIPART_FILE_LIMIT_EXCEEDED');
        return;
      }
      result.files!.add(name, disposition.filename);
      result.filesSizes!.add(name, String(value.length));
      result.filesCombinedSize! += value.length;
      result.lastFilename = disposition.filename;
    } else if (result.args!.entries.length < argumentsLimit) {
      result.args!.add(name, value);
    } else error ??= `arguments limit of ${argumentsLimit} exceeded`;
  };

  for (const line of splitLines(body)) {
    lineStart += line.text.length + (line.crlf ? 2 : 1);
    const isDelimiter = line.text.startsWith(delimiter);
    const rest = isDelimiter ? line.text.slice(delimiter.length) : '';
    const closing = isDelimiter && rest.startsWith('--');
    if (isDelimiter && state !== 'epilogue' && (closing || /^[ \t]*$/.test(rest))) {
      if (line.crlf) crlfSeen = true;
      else if (!closing) lfSeen = true;
      if (state === 'data') {
        const last = data.length - 1;
        if (last >= 0) data[last] = data[last]!.replace(/\r?\n$/, '');
        finishPart();
      } else if (state === 'headers') {
        flag('MULTIPART_INVALID_PART');
        error ??= 'Multipart: part without a body';
      }
      headers = [];
      data = [];
      state = closing ? 'epilogue' : 'headers';
      continue;
    }
    if (isDelimiter && state === 'data') flag('MULTIPART_UNMATCHED_BOUNDARY');
    switch (state) {
      case 'preamble':
        if (line.text.length > 0) flag('MULTIPART_DATA_BEFORE');
        break;
      case 'headers':
        if (line.crlf) crlfSeen = true;
        else lfSeen = true;
        if (line.text.length === 0) state = 'data';
        else if (!/^[ \t]/.test(line.text) && !/^[^\s:]+:/.test(line.text)) {
          flag('MULTIPART_INVALID_HEADER_FOLDING');
          error ??= 'Multipart: invalid part header';
        } else headers.push(line.text);
        break;
      case 'data':
        data.push(line.text + (line.crlf ? '\r\n' : '\n'));
        break;
      case 'epilogue':
        if (line.text.trim().length > 0) flag('MULTIPART_DATA_AFTER');
        break;
    }
  }
  if (state !== 'epilogue') {
    flag('MULTIPART_INVALID_PART');
    error ??= 'Multipart: final boundary missing';
  }
  if (lfSeen) flag('MULTIPART_LF_LINE');
  if (lfSeen && crlfSeen) flag('MULTIPART_CRLF_LF_LINES');
  const strict = [...flags.keys()].some((f) => f !== 'MULTIPART_UNMATCHED_BOUNDARY');
  if (strict || error) flag('MULTIPART_STRICT_ERROR');
  return error ? { ...result, error } : result;
}

export const multipart: BodyParser = {
  name: 'MULTIPART',
  parse: (body, contentType, config) =>
    parseMultipart(body, contentType, config.argumentsLimit, config.requestBodyNoFilesLimit),
};
