// Integer literals: decimal (optionally negative), `0x` hexadecimal, leading-`0` octal — as in
// wirefilter. Values must fit a JS safe integer (±2^53−1); wirefilter's i64 is wider.

import { fail, reasons, type Span } from '../errors.ts';

export function parseIntLiteral(text: string, span: Span): number {
  let radix = 10;
  let digits = text;
  let negative = false;
  if (text.startsWith('0x')) {
    radix = 16;
    digits = text.slice(2);
  } else if (text.startsWith('0') && text.length > 1) {
    radix = 8;
    digits = text.slice(1);
  } else if (text.startsWith('-')) {
    negative = true;
    digits = text.slice(1);
  }
  if (digits === '') fail(span, reasons.parseInt('cannot parse integer from empty string', radix));
  const valid = radix === 16 ? /^[0-9A-Fa-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) fail(span, reasons.parseInt('invalid digit found in string', radix));
  const n = Number.parseInt(digits, radix);
  if (!Number.isSafeInteger(n)) {
    const why = negative
      ? 'number too small to fit in target type'
      : 'number too large to fit in target type';
    fail(span, reasons.parseInt(why, radix));
  }
  return negative ? -n : n;
}
