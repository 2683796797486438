import { firstInvalidUtf8Byte } from '@cairn/kit';
import type { SecurityEventRow } from './store.ts';

// What PostgreSQL can store: `text` holds no NUL, its UTF-8 holds no lone UTF-16 surrogate, and `jsonb`
// refuses both as `\u` escapes. Security events are made of request bytes an attacker chose, so every
// text field goes through these before it is written. What can't be stored is shown as `\xHH`, the
// Rules language's notation for a byte (the bytes of a lone surrogate are its WTF-8 encoding). A
// request that held the four characters `\x00` reads the same: the escape is for reading, not parsing.

const PLAIN = /^[\x01-\x7f]*$/;
const UNSTORABLE = /[\0\ud800-\udfff]/;

const hex = (byte: number): string => `\\x${byte.toString(16).padStart(2, '0')}`;

/** Counts the characters and bytes escaped, for the metric. */
export interface Escapes {
  count: number;
}

/** Text (a description, an id): NUL and lone surrogates as `\xHH`; everything else kept. */
export function storableText(text: string, escapes: Escapes = { count: 0 }): string {
  if (PLAIN.test(text) || !UNSTORABLE.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) {
      out += hex(0);
      escapes.count++;
    } else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      out += text.slice(i, i + 2);
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += hex(0xed) + hex(0x80 | ((c >> 6) & 0x3f)) + hex(0x80 | (c & 0x3f));
      escapes.count++;
    } else {
      out += text[i];
    }
  }
  return out;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Request bytes as a binary string (one character per byte, as node gives the request line and headers
 * and the engines give matched data): UTF-8 decoded where it is valid, NUL and every byte of an invalid
 * sequence as `\xHH`. A string with characters above U+00FF is text already and goes to `storableText`.
 */
export function storableBytes(bytes: string, escapes: Escapes = { count: 0 }): string {
  if (PLAIN.test(bytes)) return bytes;
  for (let i = 0; i < bytes.length; i++) if (bytes.charCodeAt(i) > 0xff) return storableText(bytes, escapes);
  const buf = Buffer.from(bytes, 'latin1');
  let out = '';
  let i = 0;
  while (i < buf.length) {
    // kit's UTF-8 check (Unicode Table 3-7) finds where the valid run ends; that byte is escaped.
    const bad = firstInvalidUtf8Byte(buf.subarray(i));
    const end = bad === -1 ? buf.length : i + bad;
    out += buf.toString('utf8', i, end).replace(/\0/g, () => {
      escapes.count++;
      return hex(0);
    });
    if (bad === -1) break;
    out += hex(buf[end] as number);
    escapes.count++;
    i = end + 1;
  }
  return out;
}

/**
 * The event with every text field storable (request-derived ones decoded as bytes, the rest as text),
 * and how many characters or bytes had to be escaped.
 */
export function storableEvent(e: SecurityEventRow): { event: SecurityEventRow; escaped: number } {
  const escapes: Escapes = { count: 0 };
  const text = (s: string): string => storableText(s, escapes);
  const bytes = (s: string): string => storableBytes(s, escapes);
  const event: SecurityEventRow = {
    ...e,
    rayId: text(e.rayId),
    action: text(e.action),
    source: text(e.source),
    waf: e.waf === null ? null : text(e.waf),
    phase: e.phase === null ? null : text(e.phase),
    rulesetId: e.rulesetId === null ? null : text(e.rulesetId),
    ruleId: text(e.ruleId),
    description: text(e.description),
    clientIp: text(e.clientIp),
    method: bytes(e.method),
    host: bytes(e.host),
    path: bytes(e.path),
    query: bytes(e.query),
    userAgent: bytes(e.userAgent),
    httpProtocol: text(e.httpProtocol),
    ...(e.clientAsnDescription === undefined ? {} : { clientAsnDescription: text(e.clientAsnDescription) }),
    ...(e.refererHost === undefined ? {} : { refererHost: bytes(e.refererHost) }),
    matchedData: e.matchedData.map((m) => ({
      ...m,
      name: bytes(m.name),
      value: bytes(m.value),
      ...(m.ruleId === undefined ? {} : { ruleId: text(m.ruleId) }),
      ...(m.message === undefined ? {} : { message: bytes(m.message) }),
    })),
  };
  return { event, escaped: escapes.count };
}
