// Classifies a bare literal run: an integer, an integer range `a..b`, an IP address, an IP
// range `a..b`, or a CIDR `a/n`. The checker then matches it against the field's type.

import type { CidrLiteral, IntLiteral, IntRangeLiteral, IpLiteral, IpRangeLiteral } from '../ast.ts';
import { fail, reasons, type Span } from '../errors.ts';
import { IpAddress } from '../values/ip.ts';
import { parseIntLiteral } from './int.ts';

export type BareLiteral = IntLiteral | IpLiteral | IntRangeLiteral | IpRangeLiteral | CidrLiteral;

const INVALID_IP = 'invalid IP address syntax';

function looksLikeIp(text: string): boolean {
  return text.includes(':') || text.includes('.');
}

function parseIp(text: string, span: Span): IpAddress {
  const ip = IpAddress.parse(text);
  if (!ip) fail(span, INVALID_IP);
  return ip;
}

function parseScalar(text: string, span: Span): IntLiteral | IpLiteral {
  if (looksLikeIp(text)) return { kind: 'ip', address: parseIp(text, span).toString(), span };
  return { kind: 'int', value: parseIntLiteral(text, span), span };
}

export function parseBareLiteral(text: string, span: Span): BareLiteral {
  const dots = text.indexOf('..');
  if (dots !== -1) {
    const leftSpan = { start: span.start, end: span.start + dots };
    const rightSpan = { start: span.start + dots + 2, end: span.end };
    const from = parseScalar(text.slice(0, dots), leftSpan);
    const to = parseScalar(text.slice(dots + 2), rightSpan);
    if (from.kind === 'int' && to.kind === 'int') {
      if (to.value < from.value) fail(span, reasons.incompatibleRangeBounds);
      return { kind: 'int_range', from: from.value, to: to.value, span };
    }
    if (from.kind === 'ip' && to.kind === 'ip') {
      const a = IpAddress.parse(from.address);
      const b = IpAddress.parse(to.address);
      const order = a && b ? a.compare(b) : undefined;
      if (order === undefined || order > 0) fail(span, reasons.incompatibleRangeBounds);
      return { kind: 'ip_range', from: from.address, to: to.address, span };
    }
    fail(span, reasons.incompatibleRangeBounds);
  }
  const slash = text.indexOf('/');
  if (slash !== -1) {
    const addrSpan = { start: span.start, end: span.start + slash };
    const bitsSpan = { start: span.start + slash + 1, end: span.end };
    const ip = parseIp(text.slice(0, slash), addrSpan);
    const bitsText = text.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(bitsText)) fail(bitsSpan, 'invalid network prefix length');
    const bits = Number(bitsText);
    if (bits > (ip.version === 4 ? 32 : 128)) fail(bitsSpan, 'invalid network prefix length');
    return { kind: 'cidr', address: ip.toString(), bits, span };
  }
  return parseScalar(text, span);
}
