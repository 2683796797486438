import { badRequest } from '@cairn/kit';

/** One call the API port received, as the journal keeps it (secrets redacted). */
export interface JournalEntry {
  id: number;
  /** The sandbox clock's time when the call arrived. */
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  /** Who the services found the caller to be (absent when the call carried no accepted credential). */
  attribution?: {
    kind: string;
    organizationId: string;
    appId?: string;
    userId?: number;
  };
  /** Milliseconds from the request's arrival to the answer's last byte. */
  durationMs: number;
  requestId: string;
  headers: Record<string, string>;
  /** The parsed body (JSON or form), secrets redacted; large bodies are cut to a note. */
  body?: unknown;
  /** The fault that answered instead of the API, if one did. */
  fault?: string;
}

export interface JournalFilter {
  method?: string;
  /** Paths starting with this. */
  path?: string;
  /** An exact status (429) or a class ("4xx"). */
  status?: string | number;
  /** Calls at or after this instant (sandbox clock). */
  since?: string | Date;
  /** At most this many, the latest (default all kept). */
  limit?: number;
}

export const REDACTED = '[redacted]';
/** Headers whose values are credentials. Authorization keeps its scheme and the token's kind prefix. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-auth-key',
]);
/** Query and body fields whose values are secrets (matched on the whole name, case-insensitive). */
const SECRET_FIELD =
  /secret|token|password|passwd|code_verifier|^code$|assertion|api[_-]?key|^key$|credential|csrf/i;
const MAX_BODY_CHARS = 16_384;
const MAX_DEPTH = 8;

function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+([a-z]{2,4}_)?/i.exec(value);
  if (!match) return REDACTED;
  return `${match[1]} ${match[2] ?? ''}${REDACTED}`;
}

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (name === 'authorization' || name === 'proxy-authorization') out[name] = redactAuthorization(text);
    else out[name] = SECRET_HEADERS.has(name) ? REDACTED : text.slice(0, 2048);
  }
  return out;
}

/** A copy of a parsed query or body with secret fields' values replaced. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 1000).map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 1000)) {
      out[k] = SECRET_FIELD.test(k) ? REDACTED : redactValue(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'string') return value.length > 2048 ? `${value.slice(0, 2048)}…` : value;
  return value;
}

export function redactBody(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body)) return `[${body.length} bytes]`;
  const redacted = redactValue(body);
  const text = JSON.stringify(redacted) ?? '';
  return text.length > MAX_BODY_CHARS ? `[${text.length} characters, not kept]` : redacted;
}

function statusFilter(status: string | number): (s: number) => boolean {
  const text = String(status).trim().toLowerCase();
  if (/^[1-5]\d\d$/.test(text)) return (s) => s === Number(text);
  if (/^[1-5]xx$/.test(text)) return (s) => Math.floor(s / 100) === Number(text[0]);
  throw badRequest(
    `"status" must be a status such as 429 or a class such as 4xx, got ${JSON.stringify(status).slice(0, 40)}`,
    {
      parameter: 'status',
    },
  );
}

/** The calls received, newest last, in a ring of `capacity` entries (the oldest are dropped). */
export class RequestJournal {
  private readonly ring: (JournalEntry | undefined)[];
  private start = 0;
  private size = 0;
  private nextId = 1;
  dropped = 0;

  constructor(readonly capacity = 1000) {
    this.ring = new Array(capacity);
  }

  add(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full: JournalEntry = { id: this.nextId++, ...entry };
    if (this.size < this.capacity) {
      this.ring[(this.start + this.size) % this.capacity] = full;
      this.size++;
    } else {
      this.ring[this.start] = full;
      this.start = (this.start + 1) % this.capacity;
      this.dropped++;
    }
    return full;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const method = filter.method?.toUpperCase();
    if (method !== undefined && !/^[A-Z]{1,16}$/.test(method)) {
      throw badRequest(
        `"method" must be an HTTP method such as GET, got ${JSON.stringify(filter.method).slice(0, 40)}`,
        {
          parameter: 'method',
        },
      );
    }
    if (filter.path !== undefined && !filter.path.startsWith('/')) {
      throw badRequest(
        `"path" must be a path prefix starting with "/", got ${JSON.stringify(filter.path).slice(0, 80)}`,
        {
          parameter: 'path',
        },
      );
    }
    const status = filter.status === undefined ? undefined : statusFilter(filter.status);
    let since: number | undefined;
    if (filter.since !== undefined) {
      since = filter.since instanceof Date ? filter.since.getTime() : Date.parse(filter.since);
      if (!Number.isFinite(since)) {
        throw badRequest(
          `"since" must be an ISO 8601 date-time, got ${JSON.stringify(String(filter.since)).slice(0, 60)}`,
          {
            parameter: 'since',
          },
        );
      }
    }
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const e = this.ring[(this.start + i) % this.capacity]!;
      if (method && e.method !== method) continue;
      if (filter.path !== undefined && !e.path.startsWith(filter.path)) continue;
      if (status && !status(e.status)) continue;
      if (since !== undefined && Date.parse(e.at) < since) continue;
      out.push(e);
    }
    return filter.limit !== undefined ? out.slice(Math.max(0, out.length - filter.limit)) : out;
  }

  clear(): number {
    const n = this.size;
    this.ring.fill(undefined);
    this.start = 0;
    this.size = 0;
    return n;
  }
}
