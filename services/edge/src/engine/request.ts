import { createRequestContext, type ExecutionContext, type Scheme } from '@cairn/rules';
import type { GeoLookup, Waf, WafRequest } from '@cairn/seclang';
import type { GeoInfo } from '../geo/database.ts';
import type { PoolAnswer, PooledRequest } from './pool/protocol.ts';

/**
 * One request as the data plane hands it to the engine: the request line, the raw headers, the client,
 * and the body up to the inspection limit (`bodyTruncated` when more followed).
 */
export interface EdgeRequest {
  method: string;
  /** The request target the rules see: normalised as the zone's URL normalisation says. */
  url: string;
  /** The request target as received (origin-form: `/path?query`): `raw.http.request.uri*`, REQUEST_URI_RAW. */
  rawUrl: string;
  httpVersion: string;
  /** Node's rawHeaders: name, value, name, value… in arrival order. */
  rawHeaders: readonly string[];
  ip: string;
  /** The Host header without the port, lowercase. */
  host: string;
  scheme: 'http' | 'https';
  port: number;
  body?: Buffer;
  bodyTruncated: boolean;
  rayId: string;
  /** Arrival time, milliseconds since the epoch. */
  timestamp: number;
  zone: { name: string; plan: string };
}

const PLAN_CODES: Record<string, string> = { free: 'FREE', pro: 'PRO', business: 'BIZ', enterprise: 'ENT' };

/**
 * Lazily derived views of a request, computed at most once whichever engines ask: the Rules-language
 * execution context, the SecLang request, the path and query, the header pairs.
 */
export class RequestView {
  private context: ExecutionContext | undefined;
  private secLang: WafRequest | undefined;
  private pairs: [string, string][] | undefined;
  private split: { path: string; query: string } | undefined;
  /**
   * Set when the request's CRS evaluations go to the worker pool: the answers received so far, by
   * engine. runCrs reads its answer here, and asks for it (CrsInPool) when it is not there yet.
   */
  crsResults: Map<Waf, PoolAnswer> | undefined;

  constructor(
    readonly request: EdgeRequest,
    private readonly scheme: Scheme,
    private readonly geo?: (address: string) => GeoInfo | undefined,
  ) {}

  /** The client's location, looked up when a rule first reads a geo field. */
  private readonly geoOfClient = () => this.geo?.(this.request.ip);

  /** @geoLookup's view of the same database. */
  private readonly geoLookup: GeoLookup = (address) => {
    const g = this.geo?.(address);
    return g && { countryCode: g.country, continent: g.continent };
  };

  get rules(): ExecutionContext {
    const r = this.request;
    this.context ??= createRequestContext(this.scheme, {
      method: r.method,
      url: r.url,
      rawUrl: r.rawUrl,
      headers: r.rawHeaders,
      ip: r.ip,
      httpVersion: r.httpVersion,
      ssl: r.scheme === 'https',
      port: r.port,
      timestamp: r.timestamp,
      rayId: r.rayId,
      geo: this.geoOfClient,
      zone: { name: r.zone.name, plan: PLAN_CODES[r.zone.plan] ?? r.zone.plan },
      ...(r.body ? { body: r.body, bodyTruncated: r.bodyTruncated } : {}),
    });
    return this.context;
  }

  get headers(): [string, string][] {
    if (!this.pairs) {
      const raw = this.request.rawHeaders;
      const out: [string, string][] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
      this.pairs = out;
    }
    return this.pairs;
  }

  get seclang(): WafRequest {
    const r = this.request;
    this.secLang ??= {
      method: r.method,
      uri: r.url,
      uriRaw: r.rawUrl,
      httpVersion: r.httpVersion,
      headers: this.headers,
      remoteAddr: r.ip,
      geoLookup: this.geoLookup,
      ...(r.body ? { body: r.body } : {}),
    };
    return this.secLang;
  }

  /** What a CRS worker needs of the request: the SecLang request's data, the body copied to its own buffer. */
  pooled(): PooledRequest {
    const r = this.request;
    const geo = this.geoLookup(r.ip);
    return {
      method: r.method,
      uri: r.url,
      uriRaw: r.rawUrl,
      httpVersion: r.httpVersion,
      headers: this.headers,
      remoteAddr: r.ip,
      ...(r.body ? { body: new Uint8Array(r.body) } : {}),
      ...(geo ? { geo } : {}),
    };
  }

  private parts(): { path: string; query: string } {
    if (!this.split) {
      const q = this.request.url.indexOf('?');
      this.split =
        q < 0
          ? { path: this.request.url, query: '' }
          : { path: this.request.url.slice(0, q), query: this.request.url.slice(q + 1) };
    }
    return this.split;
  }

  get path(): string {
    return this.parts().path;
  }

  get query(): string {
    return this.parts().query;
  }

  /** `scheme://host/path?query`, what page rules and URI-based overrides match. */
  get fullUrl(): string {
    return `${this.request.scheme}://${this.request.host}${this.request.url}`;
  }

  header(name: string): string | undefined {
    for (const [n, v] of this.headers) if (n.toLowerCase() === name) return v;
    return undefined;
  }
}
