import type { Signature } from './edge-signatures.ts';
import { RAW_UPLOAD_FAMILIES, RAW_UPLOAD_TYPES } from './raw-upload-types.ts';

/**
 * The edge inspects a request body up to EDGE_WAF_BODY_LIMIT (128 KiB) and streams the rest to the origin
 * unread, so a payload placed past the limit (`pad=<135,000 × A>&user=admin'--`) would reach the origin
 * uninspected. ModSecurity refuses such a body (SecRequestBodyNoFilesLimit); this rule does the same for
 * every body the origin may read as arguments. Raw uploads (binary media types) are left to stream: the
 * bytes past the limit are data, not arguments, and refusing them would cap uploads at the limit.
 * A multipart/form-data body is counted as ModSecurity counts it: the proxy holds it whole (up to
 * EDGE_WAF_MULTIPART_LIMIT) and the rules see it without its file contents, truncated only when its
 * fields and part headers pass the limit (or the body the cap) — proxy/multipart-view.ts.
 * Overriding the rule (disable, log, or a skip rule for an upload path) keeps the rest of the ruleset.
 */
const mime = 'http.request.body.mime';

export const BODY_LIMIT_SIGNATURE: Signature = {
  slug: 'request-body-over-inspection-limit',
  legacyId: '100600',
  group: 'Cloudflare Specials',
  description: 'Anomaly:Body - Larger than the inspected size (the part past it would not be inspected)',
  expression: `http.request.body.truncated and not (${mime} in {${RAW_UPLOAD_TYPES.map((t) => `"${t}"`).join(' ')}} or ${RAW_UPLOAD_FAMILIES.map((f) => `starts_with(${mime}, "${f}")`).join(' or ')})`,
  categories: ['anomaly', 'body'],
  action: 'block',
  enabled: true,
};
