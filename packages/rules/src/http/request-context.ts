// Builds an execution context from a plain request description. Every field is computed on
// first use and at most once: the URL is split once, headers are indexed once, and so on.

import { type ContextOptions, ExecutionContext, type FieldResolver } from '../context.ts';
import type { Scheme } from '../scheme.ts';
import { asciiLower } from '../values/bytes.ts';
import type { IpAddress } from '../values/ip.ts';
import {
  acceptedLanguages,
  type HeaderInput,
  type HeaderList,
  headerList,
  type Pairs,
  pathExtension,
  splitCookies,
  splitPairs,
  splitUrl,
  type UrlParts,
} from './request-parts.ts';

export interface HttpRequestInput {
  readonly method: string;
  /** `https://host/path?query` or an origin-form target `/path?query` (host from the Host header). */
  readonly url: string;
  /**
   * The request target as received when `url` is its normalised form: the `raw.http.request.uri*`
   * fields read it (default: `url`).
   */
  readonly rawUrl?: string;
  /** [name, value] pairs, Node's rawHeaders, or an object of name → value(s). */
  readonly headers?: HeaderInput;
  /** The client address. */
  readonly ip?: string | IpAddress;
  /** Body bytes: a Uint8Array or a binary string. */
  readonly body?: string | Uint8Array;
  readonly bodyTruncated?: boolean;
  readonly headersTruncated?: boolean;
  /** `1.1`, `2`, or `HTTP/1.1`. */
  readonly httpVersion?: string;
  /** Defaults to the URL scheme being https. */
  readonly ssl?: boolean;
  /** Destination port. */
  readonly port?: number;
  /** Arrival time in milliseconds since the epoch (pass the service clock's time). */
  readonly timestamp?: number;
  /** The client's location: values, or a function looking them up on first use of a geo field. */
  readonly geo?: GeoInput | (() => GeoInput | undefined);
  readonly scores?: {
    readonly waf?: number;
    readonly sqli?: number;
    readonly xss?: number;
    readonly rce?: number;
    readonly wafClass?: string;
    readonly threat?: number;
    readonly bot?: number;
  };
  readonly bot?: { readonly verified?: boolean; readonly staticResource?: boolean };
  readonly zone?: { readonly name?: string; readonly plan?: string };
  readonly edge?: { readonly ip?: string; readonly port?: number };
  readonly rayId?: string;
  readonly randomSeed?: string | Uint8Array;
  /** Values of other fields by name: a value, or a function computing it on first use. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

export interface GeoInput {
  readonly country?: string;
  readonly continent?: string;
  readonly asnum?: number;
  readonly city?: string;
  readonly region?: string;
  readonly regionCode?: string;
  readonly subdivision1?: string;
  readonly subdivision2?: string;
  readonly postalCode?: string;
  readonly metroCode?: string;
  readonly lat?: string;
  readonly lon?: string;
  readonly timezone?: string;
  readonly isInEuropeanUnion?: boolean;
}

type Compute = (r: RequestView) => unknown;

/** A header name as sent equals `lower`, ignoring ASCII case. */
function sameName(sent: string, lower: string): boolean {
  return sent.length === lower.length && (sent === lower || asciiLower(sent) === lower);
}

class RequestView {
  private urlParts?: UrlParts;
  private rawUrlParts?: UrlParts;
  private rawArgParts?: Pairs;
  private headerParts?: HeaderList;
  private argParts?: Pairs;
  private formParts?: Pairs;
  private bodyBytes?: string;
  private geoValues?: GeoInput | null;

  constructor(readonly input: HttpRequestInput) {}

  get url(): UrlParts {
    this.urlParts ??= splitUrl(this.input.url);
    return this.urlParts;
  }
  /** The URL as received (the same parts as `url` when no raw form was given). */
  get rawUrl(): UrlParts {
    if (this.input.rawUrl === undefined) return this.url;
    this.rawUrlParts ??= splitUrl(this.input.rawUrl);
    return this.rawUrlParts;
  }
  get headers(): HeaderList {
    this.headerParts ??= headerList(this.input.headers);
    return this.headerParts;
  }
  /** The first value of header `name` (lowercase). */
  header(name: string): string | undefined {
    const { names, values } = this.headers;
    for (let i = 0; i < names.length; i++) if (sameName(names[i] as string, name)) return values[i];
    return undefined;
  }
  /** Every value of header `name` (lowercase) joined by `sep`, or undefined when absent. */
  headerJoined(name: string, sep: string): string | undefined {
    const { names, values } = this.headers;
    let out: string | undefined;
    for (let i = 0; i < names.length; i++) {
      if (sameName(names[i] as string, name))
        out = out === undefined ? values[i] : `${out}${sep}${values[i]}`;
    }
    return out;
  }
  get args(): Pairs {
    this.argParts ??= splitPairs(this.url.query, '&', false);
    return this.argParts;
  }
  get rawArgs(): Pairs {
    if (this.input.rawUrl === undefined) return this.args;
    this.rawArgParts ??= splitPairs(this.rawUrl.query, '&', false);
    return this.rawArgParts;
  }
  get geo(): GeoInput | undefined {
    if (this.geoValues === undefined) {
      const g = this.input.geo;
      this.geoValues = (typeof g === 'function' ? g() : g) ?? null;
    }
    return this.geoValues ?? undefined;
  }
  get body(): string | undefined {
    const b = this.input.body;
    if (b === undefined) return undefined;
    this.bodyBytes ??= typeof b === 'string' ? b : Buffer.from(b).toString('latin1');
    return this.bodyBytes;
  }
  get mime(): string {
    return asciiLower((this.header('content-type') ?? '').split(';')[0]?.trim() ?? '');
  }
  get form(): Pairs {
    const text = this.mime === 'application/x-www-form-urlencoded' ? (this.body ?? '') : '';
    this.formParts ??= splitPairs(text, '&', true);
    return this.formParts;
  }
  get ssl(): boolean {
    return this.input.ssl ?? this.url.scheme === 'https';
  }
  get host(): string | undefined {
    return this.header('host') ?? this.url.authority;
  }
  uri(parts: UrlParts): string {
    return parts.hasQuery ? `${parts.path}?${parts.query}` : parts.path;
  }
  fullUri(parts: UrlParts): string {
    return `${this.ssl ? 'https' : 'http'}://${this.host ?? ''}${this.uri(parts)}`;
  }
}

const COMPUTE: Readonly<Record<string, Compute>> = {
  'http.request.method': (r) => r.input.method,
  'http.request.version': (r) => {
    const v = r.input.httpVersion;
    return v === undefined ? undefined : v.startsWith('HTTP/') ? v : `HTTP/${v}`;
  },
  'http.request.full_uri': (r) => r.fullUri(r.url),
  'http.request.uri': (r) => r.uri(r.url),
  'http.request.uri.path': (r) => r.url.path,
  'http.request.uri.path.extension': (r) => pathExtension(r.url.path),
  'http.request.uri.query': (r) => r.url.query,
  'http.request.uri.args': (r) => r.args.map,
  'http.request.uri.args.names': (r) => r.args.names,
  'http.request.uri.args.values': (r) => r.args.values,
  'raw.http.request.full_uri': (r) => r.fullUri(r.rawUrl),
  'raw.http.request.uri': (r) => r.uri(r.rawUrl),
  'raw.http.request.uri.path': (r) => r.rawUrl.path,
  'raw.http.request.uri.path.extension': (r) => pathExtension(r.rawUrl.path),
  'raw.http.request.uri.query': (r) => r.rawUrl.query,
  'raw.http.request.uri.args': (r) => r.rawArgs.map,
  'raw.http.request.uri.args.names': (r) => r.rawArgs.names,
  'raw.http.request.uri.args.values': (r) => r.rawArgs.values,
  'http.host': (r) => r.host,
  'http.user_agent': (r) => r.header('user-agent'),
  'http.referer': (r) => r.header('referer'),
  'http.cookie': (r) => r.headerJoined('cookie', '; '),
  'http.x_forwarded_for': (r) => r.headerJoined('x-forwarded-for', ', '),
  'http.request.headers': (r) => r.headers.map,
  'http.request.headers.names': (r) => r.headers.names,
  'http.request.headers.values': (r) => r.headers.values,
  'http.request.headers.truncated': (r) => r.input.headersTruncated ?? false,
  'http.request.cookies': (r) => splitCookies(r.headerJoined('cookie', '; ') ?? ''),
  'http.request.accepted_languages': (r) => acceptedLanguages(r.header('accept-language') ?? ''),
  'http.request.body.raw': (r) => r.body ?? '',
  'http.request.body.size': (r) => r.body?.length ?? 0,
  'http.request.body.truncated': (r) => r.input.bodyTruncated ?? false,
  'http.request.body.mime': (r) => r.mime,
  'http.request.body.form': (r) => r.form.map,
  'http.request.body.form.names': (r) => r.form.names,
  'http.request.body.form.values': (r) => r.form.values,
  ssl: (r) => r.ssl,
  'ip.src': (r) => r.input.ip,
  'tcp.dstport': (r) => r.input.port,
  'http.request.timestamp.sec': (r) =>
    r.input.timestamp === undefined ? undefined : Math.floor(r.input.timestamp / 1000),
  'http.request.timestamp.msec': (r) =>
    r.input.timestamp === undefined ? undefined : Math.floor(r.input.timestamp) % 1000,
  'ip.src.country': (r) => r.geo?.country,
  'ip.src.continent': (r) => r.geo?.continent,
  'ip.src.asnum': (r) => r.geo?.asnum,
  'ip.src.city': (r) => r.geo?.city,
  'ip.src.region': (r) => r.geo?.region,
  'ip.src.region_code': (r) => r.geo?.regionCode,
  'ip.src.subdivision_1_iso_code': (r) => r.geo?.subdivision1,
  'ip.src.subdivision_2_iso_code': (r) => r.geo?.subdivision2,
  'ip.src.postal_code': (r) => r.geo?.postalCode,
  'ip.src.metro_code': (r) => r.geo?.metroCode,
  'ip.src.lat': (r) => r.geo?.lat,
  'ip.src.lon': (r) => r.geo?.lon,
  'ip.src.timezone.name': (r) => r.geo?.timezone,
  'ip.src.is_in_european_union': (r) => r.geo?.isInEuropeanUnion,
  'cf.waf.score': (r) => r.input.scores?.waf,
  'cf.waf.score.sqli': (r) => r.input.scores?.sqli,
  'cf.waf.score.xss': (r) => r.input.scores?.xss,
  'cf.waf.score.rce': (r) => r.input.scores?.rce,
  'cf.waf.score.class': (r) => r.input.scores?.wafClass,
  'cf.threat_score': (r) => r.input.scores?.threat,
  'cf.bot_management.score': (r) => r.input.scores?.bot,
  'cf.bot_management.verified_bot': (r) => r.input.bot?.verified,
  'cf.bot_management.static_resource': (r) => r.input.bot?.staticResource,
  'cf.client.bot': (r) => r.input.bot?.verified,
  'cf.ray_id': (r) => r.input.rayId,
  'cf.random_seed': (r) => r.input.randomSeed,
  'cf.edge.server_ip': (r) => r.input.edge?.ip,
  'cf.edge.server_port': (r) => r.input.edge?.port,
  'cf.zone.name': (r) => r.input.zone?.name,
  'cf.zone.plan': (r) => r.input.zone?.plan,
};

// The deprecated ip.geoip.* names read the ip.src.* values.
const ALIASES: Readonly<Record<string, string>> = {
  'ip.geoip.country': 'ip.src.country',
  'ip.geoip.continent': 'ip.src.continent',
  'ip.geoip.asnum': 'ip.src.asnum',
  'ip.geoip.subdivision_1_iso_code': 'ip.src.subdivision_1_iso_code',
  'ip.geoip.subdivision_2_iso_code': 'ip.src.subdivision_2_iso_code',
  'ip.geoip.is_in_european_union': 'ip.src.is_in_european_union',
};

/** Per scheme: the compute function of each field by index (undefined: unknown here). */
const tables = new WeakMap<Scheme, (Compute | undefined)[]>();

function computeTable(scheme: Scheme): (Compute | undefined)[] {
  const fields = scheme.fields;
  let table = tables.get(scheme);
  if (table?.length !== fields.length) {
    table = fields.map((f) => COMPUTE[ALIASES[f.name] ?? f.name]);
    tables.set(scheme, table);
  }
  return table;
}

/**
 * A context whose fields come from `request`, each computed on first use. Fields the scheme has
 * but this helper does not know are missing unless given in `request.fields`.
 */
export function createRequestContext(
  scheme: Scheme,
  request: HttpRequestInput,
  options: Pick<ContextOptions, 'lists'> = {},
): ExecutionContext {
  const view = new RequestView(request);
  const table = computeTable(scheme);
  const extra = request.fields;
  const resolve: FieldResolver =
    extra === undefined
      ? (field) => table[field.index]?.(view)
      : (field) => {
          if (Object.hasOwn(extra, field.name)) {
            const v = extra[field.name];
            return typeof v === 'function' ? (v as () => unknown)() : v;
          }
          return table[field.index]?.(view);
        };
  return new ExecutionContext(scheme, { lists: options.lists, resolve });
}
