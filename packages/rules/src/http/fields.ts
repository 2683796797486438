// The standard fields of the HTTP request phases (Cloudflare's standard and dynamic fields), so
// the edge service can build its schemes from one list.

import type { FunctionDef } from '../functions/definition.ts';
import { filterFunctions } from '../functions/index.ts';
import { Scheme } from '../scheme.ts';
import { arrayOf, Bool, Bytes, Int, Ip, mapOf, type Type } from '../types.ts';

const bytesArray = arrayOf(Bytes);
const multiMap = mapOf(arrayOf(Bytes));

export const httpRequestFields: Readonly<Record<string, Type>> = Object.freeze({
  // request line and URI
  'http.request.method': Bytes,
  'http.request.version': Bytes,
  'http.request.full_uri': Bytes,
  'http.request.uri': Bytes,
  'http.request.uri.path': Bytes,
  'http.request.uri.path.extension': Bytes,
  'http.request.uri.query': Bytes,
  'http.request.uri.args': multiMap,
  'http.request.uri.args.names': bytesArray,
  'http.request.uri.args.values': bytesArray,
  'raw.http.request.full_uri': Bytes,
  'raw.http.request.uri': Bytes,
  'raw.http.request.uri.path': Bytes,
  'raw.http.request.uri.path.extension': Bytes,
  'raw.http.request.uri.query': Bytes,
  'raw.http.request.uri.args': multiMap,
  'raw.http.request.uri.args.names': bytesArray,
  'raw.http.request.uri.args.values': bytesArray,
  // headers
  'http.host': Bytes,
  'http.user_agent': Bytes,
  'http.referer': Bytes,
  'http.cookie': Bytes,
  'http.x_forwarded_for': Bytes,
  'http.request.headers': multiMap,
  'http.request.headers.names': bytesArray,
  'http.request.headers.values': bytesArray,
  'http.request.headers.truncated': Bool,
  'http.request.cookies': multiMap,
  'http.request.accepted_languages': bytesArray,
  // body
  'http.request.body.raw': Bytes,
  'http.request.body.size': Int,
  'http.request.body.truncated': Bool,
  'http.request.body.mime': Bytes,
  'http.request.body.form': multiMap,
  'http.request.body.form.names': bytesArray,
  'http.request.body.form.values': bytesArray,
  // connection
  ssl: Bool,
  'ip.src': Ip,
  'tcp.dstport': Int,
  'http.request.timestamp.sec': Int,
  'http.request.timestamp.msec': Int,
  // geolocation (ip.geoip.* are the deprecated names)
  'ip.src.country': Bytes,
  'ip.geoip.country': Bytes,
  'ip.src.continent': Bytes,
  'ip.geoip.continent': Bytes,
  'ip.src.asnum': Int,
  'ip.geoip.asnum': Int,
  'ip.src.city': Bytes,
  'ip.src.region': Bytes,
  'ip.src.region_code': Bytes,
  'ip.src.subdivision_1_iso_code': Bytes,
  'ip.geoip.subdivision_1_iso_code': Bytes,
  'ip.src.subdivision_2_iso_code': Bytes,
  'ip.geoip.subdivision_2_iso_code': Bytes,
  'ip.src.postal_code': Bytes,
  'ip.src.metro_code': Bytes,
  'ip.src.lat': Bytes,
  'ip.src.lon': Bytes,
  'ip.src.timezone.name': Bytes,
  'ip.src.is_in_european_union': Bool,
  'ip.geoip.is_in_european_union': Bool,
  // scores and bots
  'cf.waf.score': Int,
  'cf.waf.score.sqli': Int,
  'cf.waf.score.xss': Int,
  'cf.waf.score.rce': Int,
  'cf.waf.score.class': Bytes,
  'cf.threat_score': Int,
  'cf.bot_management.score': Int,
  'cf.bot_management.verified_bot': Bool,
  'cf.bot_management.static_resource': Bool,
  'cf.client.bot': Bool,
  // platform
  'cf.ray_id': Bytes,
  'cf.random_seed': Bytes,
  'cf.edge.server_ip': Ip,
  'cf.edge.server_port': Int,
  'cf.zone.name': Bytes,
  'cf.zone.plan': Bytes,
});

export interface HttpSchemeOptions {
  /** Defaults to `filterFunctions`. */
  readonly functions?: readonly FunctionDef[];
  readonly lists?: Readonly<Record<string, Type | string>>;
  /** More fields, e.g. phase-specific ones; a name already present is an error. */
  readonly extraFields?: Readonly<Record<string, Type | string>>;
}

/** A scheme with every standard HTTP request field and the filter functions. */
export function httpRequestScheme(options: HttpSchemeOptions = {}): Scheme {
  const scheme = new Scheme({
    fields: httpRequestFields,
    functions: options.functions ?? filterFunctions,
    lists: options.lists,
  });
  for (const [name, type] of Object.entries(options.extraFields ?? {})) scheme.addField(name, type);
  return scheme;
}
