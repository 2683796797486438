// Pure helpers that cut a plain request description into the parts the fields need. Values are
// byte strings; nothing is decoded unless the field says so.

import { urlDecodeOnce } from '../functions/url-decode.ts';
import { asciiLower } from '../values/bytes.ts';

export type HeaderInput =
  | Iterable<readonly [string, string]>
  | readonly string[]
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface HeaderList {
  /** Names as sent (original case), in order. */
  readonly names: string[];
  readonly values: string[];
  /** Lowercased name → values in order (built on first use). */
  readonly map: Map<string, string[]>;
}

class Headers implements HeaderList {
  readonly names: string[] = [];
  readonly values: string[] = [];
  private byName: Map<string, string[]> | undefined;

  get map(): Map<string, string[]> {
    if (this.byName === undefined) {
      const map = new Map<string, string[]>();
      const { names, values } = this;
      for (let i = 0; i < names.length; i++) {
        const key = asciiLower(names[i] as string);
        const list = map.get(key);
        if (list) list.push(values[i] as string);
        else map.set(key, [values[i] as string]);
      }
      this.byName = map;
    }
    return this.byName;
  }
}

export function headerList(input: HeaderInput | undefined): HeaderList {
  const out = new Headers();
  const { names, values } = out;
  if (input === undefined) {
    // no headers
  } else if (Array.isArray(input) && (input.length === 0 || typeof input[0] === 'string')) {
    // Node's rawHeaders: [name, value, name, value, …]
    const flat = input as readonly string[];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      names.push(flat[i] as string);
      values.push(flat[i + 1] as string);
    }
  } else if (Symbol.iterator in (input as object)) {
    for (const [name, value] of input as Iterable<readonly [string, string]>) {
      names.push(name);
      values.push(value);
    }
  } else {
    for (const [name, value] of Object.entries(
      input as Record<string, string | readonly string[] | undefined>,
    )) {
      if (value === undefined) continue;
      for (const v of typeof value === 'string' ? [value] : value) {
        names.push(name);
        values.push(v);
      }
    }
  }
  return out;
}

export interface UrlParts {
  readonly scheme: string | undefined;
  readonly authority: string | undefined;
  readonly path: string;
  readonly query: string;
  readonly hasQuery: boolean;
}

/** Splits an absolute URL or an origin-form target (`/path?query`); the fragment is dropped. */
export function splitUrl(url: string): UrlParts {
  let rest = url;
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  let scheme: string | undefined;
  let authority: string | undefined;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(rest);
  if (m) {
    scheme = asciiLower(m[1] ?? '');
    rest = rest.slice(m[0].length);
    const end = rest.search(/[/?]/);
    authority = end === -1 ? rest : rest.slice(0, end);
    rest = end === -1 ? '/' : rest.slice(end);
    if (rest.startsWith('?')) rest = `/${rest}`;
  }
  const q = rest.indexOf('?');
  if (q === -1) return { scheme, authority, path: rest, query: '', hasQuery: false };
  return { scheme, authority, path: rest.slice(0, q), query: rest.slice(q + 1), hasQuery: true };
}

/** Lowercased extension of the last path segment, without the dot ('' when none). */
export function pathExtension(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  return dot === -1 ? '' : asciiLower(segment.slice(dot + 1));
}

export interface Pairs {
  readonly names: string[];
  readonly values: string[];
  readonly map: Map<string, string[]>;
}

/** `a=1&b=2&a=3` → names, values and a multi-map; `decode` applies form decoding. */
export function splitPairs(text: string, separator: string | RegExp, decode: boolean): Pairs {
  const names: string[] = [];
  const values: string[] = [];
  const map = new Map<string, string[]>();
  if (text === '') return { names, values, map };
  for (const pair of text.split(separator)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name = eq === -1 ? pair : pair.slice(0, eq);
    let value = eq === -1 ? '' : pair.slice(eq + 1);
    if (decode) {
      name = urlDecodeOnce(name, false);
      value = urlDecodeOnce(value, false);
    }
    names.push(name);
    values.push(value);
    const list = map.get(name);
    if (list) list.push(value);
    else map.set(name, [value]);
  }
  return { names, values, map };
}

/** `Cookie: a=1; b=2` → multi-map (values not decoded). */
export function splitCookies(header: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    const name = (eq === -1 ? p : p.slice(0, eq)).trim();
    const value = eq === -1 ? '' : p.slice(eq + 1).trim();
    const list = map.get(name);
    if (list) list.push(value);
    else map.set(name, [value]);
  }
  return map;
}

/** Accept-Language tags, highest weight first (ties keep their order). */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((x) => x.tag !== '' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}
