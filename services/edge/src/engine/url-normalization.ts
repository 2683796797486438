import { normalizeRequestTarget } from '@cairn/rules';
import type { UrlNormalization } from '../api/zones/url-normalization.ts';

/** The two forms of a request target the data plane needs under the zone's URL normalisation. */
export interface RequestUrls {
  /** What the rules, the WAFs, page rules and overrides see (`http.request.uri*`, REQUEST_URI). */
  inspected: string;
  /** What the origin is sent: normalised with scope `both`, otherwise as received. */
  forwarded: string;
}

export function requestUrls(setting: UrlNormalization, received: string): RequestUrls {
  if (setting.scope === 'none') return { inspected: received, forwarded: received };
  const normalized = normalizeRequestTarget(received, setting.type);
  return { inspected: normalized, forwarded: setting.scope === 'both' ? normalized : received };
}
