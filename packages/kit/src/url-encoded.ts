import { isAscii } from 'node:buffer';
import { printableName } from './storable-text.ts';
import { decodeUtf8 } from './utf8.ts';

/** Parsed `application/x-www-form-urlencoded` text; repeated names give arrays, as fast-querystring does. */
export type UrlEncodedValues = Record<string, string | string[]>;

/** The first parameter that could not be decoded: its name (raw if the name itself failed) and why. */
export interface UrlEncodedProblem {
  name: string;
  problem: string;
}

export interface ParsedUrlEncoded {
  values: UrlEncodedValues;
  problem: UrlEncodedProblem | undefined;
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

/**
 * Parses a query string or form body strictly (WHATWG URL "application/x-www-form-urlencoded parsing",
 * except that bad input is reported instead of replaced): `%` not followed by two hex digits and
 * percent-decoded bytes that are not UTF-8 are problems, not U+FFFD. A parameter with a problem keeps
 * its raw text as its value, so nothing undecoded is lost; the caller refuses the request.
 */
export function parseUrlEncoded(input: string | Uint8Array): ParsedUrlEncoded {
  if (typeof input === 'string') return parseText(input);
  // A form body of ASCII (what browsers send) takes the text path; raw UTF-8 bytes the byte path.
  return isAscii(input) ? parseText(Buffer.from(input).toString('latin1')) : parseBytes(input);
}

/** One form-encoded name or value (e.g. each half of HTTP Basic credentials, RFC 6749 §2.3.1), strictly. */
export function decodeUrlEncodedComponent(raw: string): { text: string } | { problem: string } {
  const spaced = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  if (!spaced.includes('%')) return { text: spaced };
  try {
    // The platform decoder refuses what the strict one refuses (bad escapes, bytes that are not UTF-8).
    return { text: decodeURIComponent(spaced) };
  } catch {
    const bytes = Buffer.from(spaced, 'utf8');
    const decoded = decodeComponent(bytes, 0, bytes.length);
    return decoded.problem === undefined ? { text: decoded.text } : { problem: decoded.problem };
  }
}

function parseText(text: string): ParsedUrlEncoded {
  const values: UrlEncodedValues = Object.create(null);
  let problem: UrlEncodedProblem | undefined;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decodeUrlEncodedComponent(rawName);
    const value = decodeUrlEncodedComponent(rawValue);
    const key = 'text' in name ? name.text : rawName;
    const found = 'problem' in name ? name.problem : 'problem' in value ? value.problem : undefined;
    if (found && !problem) problem = { name: key, problem: found };
    add(values, key, 'text' in value ? value.text : rawValue);
  }
  return { values, problem };
}

function parseBytes(bytes: Uint8Array): ParsedUrlEncoded {
  const values: UrlEncodedValues = Object.create(null);
  let problem: UrlEncodedProblem | undefined;
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(AMPERSAND, start);
    if (end === -1) end = bytes.length;
    if (end > start) {
      let split = bytes.indexOf(EQUALS, start);
      if (split === -1 || split > end) split = end;
      const name = decodeComponent(bytes, start, split);
      const value = decodeComponent(bytes, Math.min(split + 1, end), end);
      const key = name.text ?? rawText(bytes, start, split);
      const found = name.problem ?? value.problem;
      if (found && !problem) problem = { name: key, problem: found };
      add(values, key, value.text ?? rawText(bytes, split + 1, end));
    }
    start = end + 1;
  }
  return { values, problem };
}

function add(values: UrlEncodedValues, key: string, value: string) {
  const existing = values[key];
  if (existing === undefined) values[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else values[key] = [existing, value];
}

function rawText(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.subarray(start, Math.max(start, end))).toString('latin1');
}

/** One name or value: `+` is a space, `%XX` a byte, and the bytes must be UTF-8. */
function decodeComponent(
  bytes: Uint8Array,
  start: number,
  end: number,
): { text: string; problem?: undefined } | { text?: undefined; problem: string } {
  const out = new Uint8Array(end - start);
  let length = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === PLUS) out[length++] = 0x20;
    else if (b === PERCENT) {
      const high = hexValue(bytes[i + 1]);
      const low = hexValue(bytes[i + 2]);
      if (i + 2 >= end || high < 0 || low < 0) {
        const shown = printableName(rawText(bytes, i, Math.min(i + 3, end)));
        return { problem: `has an invalid percent-encoding "${shown}"; write a literal % as %25` };
      }
      out[length++] = high * 16 + low;
      i += 2;
    } else out[length++] = b;
  }
  const decoded = decodeUtf8(out.subarray(0, length));
  if ('problem' in decoded) return { problem: `${decoded.problem} after percent-decoding` };
  return { text: decoded.text };
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
