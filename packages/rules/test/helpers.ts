// A small scheme in the style of wirefilter's tests, and a one-call evaluator.

import {
  arrayOf,
  Bool,
  Bytes,
  compile,
  createList,
  ExecutionContext,
  Int,
  Ip,
  type Limits,
  mapOf,
  parse,
  RulesParseError,
  Scheme,
} from '../src/index.ts';

export const scheme = new Scheme({
  fields: {
    'http.host': Bytes,
    'http.path': Bytes,
    'http.ua': Bytes,
    'ip.addr': Ip,
    ssl: Bool,
    'tcp.port': Int,
    'tcp.ports': arrayOf(Int),
    'http.headers': mapOf(arrayOf(Bytes)),
    'http.header_names': arrayOf(Bytes),
    'http.cookies': arrayOf(Bytes),
    'http.flags': arrayOf(Bool),
    'http.args': mapOf(Bytes),
    score: Int,
    body: Bytes,
  },
  lists: { office: Ip, bad_hosts: Bytes, ports: Int },
});

export const lists = {
  office: createList(Ip, ['192.0.2.0/24', '2001:db8::/32', '198.51.100.3..198.51.100.7']),
  bad_hosts: createList(Bytes, ['evil.example', 'bad.example']),
  ports: createList(Int, [22, '8000..8009']),
};

export function context(values: Record<string, unknown> = {}): ExecutionContext {
  const ctx = new ExecutionContext(scheme, { lists });
  for (const [k, v] of Object.entries(values)) ctx.set(k, v);
  return ctx;
}

export function run(expr: string, values: Record<string, unknown> = {}, limits?: Partial<Limits>): boolean {
  return compile(parse(expr, scheme, limits)).execute(context(values));
}

/** The full error text, or undefined when the expression parses. */
export function parseError(expr: string, limits?: Partial<Limits>, s: Scheme = scheme): string | undefined {
  try {
    parse(expr, s, limits);
    return undefined;
  } catch (e) {
    if (e instanceof RulesParseError) return e.message;
    throw e;
  }
}

/** Only the reason part of the error. */
export function reason(expr: string, limits?: Partial<Limits>): string | undefined {
  try {
    parse(expr, scheme, limits);
    return undefined;
  } catch (e) {
    if (e instanceof RulesParseError) return e.reason;
    throw e;
  }
}
