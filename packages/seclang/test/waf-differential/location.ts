// Where the payload of a recorded request sits, for grouping the harness's differences by root cause:
// query, form, json, xml, multipart, header, cookie or path.
import { header, type RecordedRequest } from './corpus.ts';

const BASELINE_COOKIES = /^(pref=1)?$/;

export function locationOf(r: RecordedRequest): string {
  const tagged = r.source?.match(/:(query|form|json|xml|cookie|referer|user-agent)$/)?.[1];
  if (tagged) return tagged === 'referer' || tagged === 'user-agent' ? 'header' : tagged;
  if (r.body !== undefined || r.bodyBase64 !== undefined) {
    const type = header(r, 'content-type') ?? '';
    if (/json/i.test(type)) return 'json';
    if (/xml/i.test(type)) return 'xml';
    if (/multipart/i.test(type)) return 'multipart';
    return 'form';
  }
  if (r.source?.endsWith(':headers')) {
    const cookie = header(r, 'cookie') ?? '';
    return BASELINE_COOKIES.test(cookie) ? 'header' : 'cookie';
  }
  return r.url.includes('?') ? 'query' : 'path';
}
