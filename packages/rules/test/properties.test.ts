// Property tests: print/parse round trips, agreement with a plain reference interpreter, and
// "random input only ever raises RulesParseError".

import { BlockList, isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompareOp, Expr, ListItem, LogicalOp, Rhs, ValueExpr } from '../src/ast.ts';
import { compile, ExecutionContext, parse, print, RulesParseError } from '../src/index.ts';
import { scheme } from './helpers.ts';

const S = { start: 0, end: 0 };

/** The tree without spans and checker annotations. */
function shape(e: unknown): unknown {
  return JSON.parse(
    JSON.stringify(e, (k, v) =>
      ['span', 'opSpan', 'nameSpan', 'keySpan', 'type', 'each'].includes(k) ? undefined : v,
    ),
  );
}

// ---- generators of well-typed trees over the test scheme ----

const ascii = fc.string({
  unit: fc.constantFrom('a', 'b', 'B', '.', '/', '-', ' ', '*', '"', '\\', '#', '%'),
  maxLength: 8,
});
const bytes = fc.string({
  unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
  maxLength: 6,
});

const quoted = (value: fc.Arbitrary<string>) =>
  value.map((v): Rhs & { kind: 'string' } => ({ kind: 'string', value: v, raw: -1, span: S }));
const raw = fc
  .tuple(ascii, fc.integer({ min: 0, max: 2 }))
  .filter(([v, h]) => !v.includes(`"${'#'.repeat(h)}`))
  .map(([v, h]): Rhs & { kind: 'string' } => ({ kind: 'string', value: v, raw: h, span: S }));
const stringLit = fc.oneof(quoted(bytes), quoted(ascii), raw);

const SAFE_REGEXES = ['^a', 'b$', 'a.b', '(?i)ab', '[a-c]+/', '^/a/[0-9]*$', 'a|b', '\\.', 'a"b', '^$'];
const regexLit = fc
  .tuple(fc.constantFrom(...SAFE_REGEXES), fc.boolean())
  .map(([v, useRaw]): Rhs => ({ kind: 'string', value: v, raw: useRaw ? 1 : -1, span: S }));
const wildcardLit = fc
  .array(fc.oneof(fc.constantFrom('*', '\\*', '\\\\'), fc.constantFrom('a', 'B', '/', '.')), { maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((p) => !p.replace(/\\[*\\]/g, '').includes('**'))
  .map((v): Rhs => ({ kind: 'string', value: v, raw: 1, span: S }));

const IPS = ['10.0.0.1', '10.0.0.2', '192.0.2.9', '2001:db8::1', '::1'];
const ipLit = fc.constantFrom(...IPS);
const ipItem: fc.Arbitrary<ListItem> = fc.oneof(
  ipLit.map((a): ListItem => ({ kind: 'ip', address: a, span: S })),
  fc
    .constantFrom(['10.0.0.0', 8], ['192.0.2.0', 24], ['2001:db8::', 32])
    .map(([a, b]): ListItem => ({ kind: 'cidr', address: a as string, bits: b as number, span: S })),
  fc.constant<ListItem>({ kind: 'ip_range', from: '10.0.0.0', to: '10.0.0.1', span: S }),
);
const intVal = fc.integer({ min: -3, max: 6 });
const intItem: fc.Arbitrary<ListItem> = fc.oneof(
  intVal.map((v): ListItem => ({ kind: 'int', value: v, span: S })),
  fc
    .tuple(intVal, fc.integer({ min: 0, max: 3 }))
    .map(([a, d]): ListItem => ({ kind: 'int_range', from: a, to: a + d, span: S })),
);

const field = (name: string): ValueExpr => ({ kind: 'field', name, span: S });
const bytesLhs: fc.Arbitrary<ValueExpr> = fc.constantFrom<ValueExpr>(
  field('http.host'),
  { kind: 'call', name: 'lower', args: [field('http.host')], span: S, nameSpan: S },
  {
    kind: 'index',
    target: {
      kind: 'index',
      target: field('http.headers'),
      key: { kind: 'key', value: 'k', raw: -1 },
      span: S,
      keySpan: S,
    },
    key: { kind: 'position', value: 0 },
    span: S,
    keySpan: S,
  },
);

const cmp = (lhs: ValueExpr, op: CompareOp, rhs: Rhs): Expr => ({
  kind: 'compare',
  op,
  lhs,
  rhs,
  span: S,
  opSpan: S,
});
const compareExpr: fc.Arbitrary<Expr> = fc.oneof(
  fc
    .tuple(bytesLhs, fc.constantFrom<CompareOp>('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains'), stringLit)
    .map(([l, o, r]) => cmp(l, o, r)),
  fc.tuple(bytesLhs, regexLit).map(([l, r]) => cmp(l, 'matches', r)),
  fc
    .tuple(bytesLhs, fc.constantFrom<CompareOp>('wildcard', 'strict_wildcard'), wildcardLit)
    .map(([l, o, r]) => cmp(l, o, r)),
  fc
    .tuple(bytesLhs, fc.array(stringLit, { minLength: 1, maxLength: 3 }))
    .map(([l, items]) => cmp(l, 'in', { kind: 'list', items, span: S })),
  fc
    .tuple(fc.constantFrom<CompareOp>('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'bitwise_and'), intVal)
    .map(([o, v]) => cmp(field('tcp.port'), o, { kind: 'int', value: v, span: S })),
  fc
    .array(intItem, { minLength: 1, maxLength: 3 })
    .map((items) => cmp(field('tcp.port'), 'in', { kind: 'list', items, span: S })),
  fc
    .tuple(fc.constantFrom<CompareOp>('eq', 'ne'), ipLit)
    .map(([o, a]) => cmp(field('ip.addr'), o, { kind: 'ip', address: a, span: S })),
  fc
    .array(ipItem, { minLength: 1, maxLength: 3 })
    .map((items) => cmp(field('ip.addr'), 'in', { kind: 'list', items, span: S })),
  fc.constant(cmp(field('ip.addr'), 'in', { kind: 'list_ref', name: 'office', span: S })),
);
const anyExpr: fc.Arbitrary<Expr> = fc
  .tuple(fc.constantFrom<CompareOp>('eq', 'contains'), fc.constantFrom('a', 'b'))
  .map(([op, v]) => ({
    kind: 'call',
    name: 'any',
    args: [
      cmp({ kind: 'index', target: field('http.cookies'), key: { kind: 'each' }, span: S, keySpan: S }, op, {
        kind: 'string',
        value: v,
        raw: -1,
        span: S,
      }),
    ],
    span: S,
    nameSpan: S,
  }));

const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    compareExpr,
    fc.constant(field('ssl')),
    fc.boolean().map((value): Expr => ({ kind: 'bool', value, span: S })),
    anyExpr,
    tie('expr').map((arg): Expr => ({ kind: 'not', arg, span: S })),
    fc
      .tuple(
        fc.constantFrom<LogicalOp>('and', 'or', 'xor'),
        fc.array(tie('expr'), { minLength: 2, maxLength: 3 }),
      )
      .map(([op, items]): Expr => ({ kind: 'logical', op, items, span: S })),
  ),
}));

// ---- a plain reference interpreter ----

interface Values {
  'http.host'?: string;
  'tcp.port'?: number;
  'ip.addr'?: string;
  ssl?: boolean;
  'http.headers'?: Record<string, string[]>;
  'http.cookies'?: string[];
}

function wildcardRegExp(pattern: string, strict: boolean): RegExp {
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') src += (pattern[++i] as string).replace(/[\\*]/, '\\$&');
    else if (c === '*') src += '[\\s\\S]*';
    else src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, strict ? '' : 'i');
}

function ipIn(ip: string, items: readonly ListItem[]): boolean {
  const family = isIPv6(ip) ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const item of items) {
    const fam = (a: string) => (isIPv6(a) ? 'ipv6' : 'ipv4');
    if (item.kind === 'ip') list.addAddress(item.address, fam(item.address));
    if (item.kind === 'cidr') list.addSubnet(item.address, item.bits, fam(item.address));
    if (item.kind === 'ip_range') list.addRange(item.from, item.to, fam(item.from));
  }
  return list.check(ip, family);
}

function lhsValue(e: ValueExpr, v: Values): unknown {
  if (e.kind === 'field') return v[e.name as keyof Values];
  if (e.kind === 'call') {
    const s = v['http.host'];
    return s === undefined ? undefined : s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  }
  return v['http.headers']?.k?.[0];
}

function compareOne(op: CompareOp, x: unknown, rhs: Rhs): boolean {
  if (x === undefined) return op === 'ne';
  if (rhs.kind === 'list') {
    if (
      typeof x === 'string' &&
      rhs.items[0]?.kind !== 'string' &&
      !rhs.items.some((i) => i.kind === 'string')
    ) {
      return ipIn(x, rhs.items);
    }
    return rhs.items.some((i) =>
      i.kind === 'int_range'
        ? (x as number) >= i.from && (x as number) <= i.to
        : i.kind === 'int' || i.kind === 'string'
          ? i.value === x
          : false,
    );
  }
  if (rhs.kind === 'list_ref')
    return ipIn(x as string, [{ kind: 'cidr', address: '192.0.2.0', bits: 24, span: S }]);
  const r =
    rhs.kind === 'ip' ? rhs.address : rhs.kind === 'string' || rhs.kind === 'int' ? rhs.value : undefined;
  switch (op) {
    case 'eq':
      return x === r;
    case 'ne':
      return x !== r;
    case 'lt':
      return (x as string) < (r as string);
    case 'le':
      return (x as string) <= (r as string);
    case 'gt':
      return (x as string) > (r as string);
    case 'ge':
      return (x as string) >= (r as string);
    case 'contains':
      return (x as string).includes(r as string);
    case 'matches':
      return new RegExp((r as string).replace('(?i)', ''), (r as string).startsWith('(?i)') ? 'i' : '').test(
        x as string,
      );
    case 'wildcard':
    case 'strict_wildcard':
      return wildcardRegExp(r as string, op === 'strict_wildcard').test(x as string);
    case 'bitwise_and':
      return ((x as number) & (r as number)) !== 0;
    default:
      throw new Error(op);
  }
}

function evaluate(e: Expr, v: Values): boolean {
  switch (e.kind) {
    case 'bool':
      return e.value;
    case 'not':
      return !evaluate(e.arg, v);
    case 'logical': {
      const xs = e.items.map((i) => evaluate(i, v));
      if (e.op === 'and') return xs.every(Boolean);
      if (e.op === 'or') return xs.some(Boolean);
      return xs.filter(Boolean).length % 2 === 1;
    }
    case 'field':
      return v.ssl === true;
    case 'call': {
      const arg = e.args[0];
      if (arg?.kind !== 'compare') throw new Error('unexpected');
      return (v['http.cookies'] ?? []).some((c) => compareOne(arg.op, c, arg.rhs));
    }
    case 'compare':
      return compareOne(e.op, lhsValue(e.lhs, v), e.rhs);
    default:
      throw new Error(e.kind);
  }
}

const hostValue = fc.string({
  unit: fc.constantFrom('a', 'b', 'B', '.', '/', '-', ' ', '*', '"', '\\'),
  maxLength: 6,
});
const valuesArb: fc.Arbitrary<Values> = fc.record(
  {
    'http.host': hostValue,
    'tcp.port': intVal,
    'ip.addr': fc.constantFrom(...IPS, '10.200.0.1', '192.0.2.200'),
    ssl: fc.boolean(),
    'http.headers': fc.dictionary(fc.constantFrom('k', 'j'), fc.array(hostValue, { maxLength: 2 })),
    'http.cookies': fc.array(fc.constantFrom('a', 'b', 'ab', 'x'), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

describe('properties', () => {
  it('parse(print(tree)) gives the same tree', () => {
    fc.assert(
      fc.property(expr, (tree) => {
        const text = print(tree);
        const reparsed = parse(text, scheme, { maxLength: 1_000_000 });
        expect(shape(reparsed.root)).toEqual(shape(tree));
        expect(print(reparsed.root)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('the compiled filter agrees with the reference interpreter', () => {
    fc.assert(
      fc.property(expr, valuesArb, (tree, values) => {
        const ast = parse(print(tree), scheme, { maxLength: 1_000_000 });
        const ctx = new ExecutionContext(scheme, { lists: { office: createOffice() } });
        for (const [k, val] of Object.entries(values)) ctx.set(k, val);
        expect(compile(ast).execute(ctx)).toBe(evaluate(ast.root, values));
      }),
      { numRuns: 600 },
    );
  });

  const TOKENS = [
    'http.host',
    'tcp.port',
    'ip.addr',
    'ssl',
    'http.headers',
    'http.cookies',
    'lower',
    'any',
    'concat',
    'len',
    '(',
    ')',
    '[',
    ']',
    '[*]',
    '{',
    '}',
    ',',
    '"a"',
    '"\\x4',
    'r#"x"#',
    'r"',
    '0x1f',
    '-3',
    '1..2',
    '10.0.0.0/8',
    '::1',
    'fe80::',
    'eq',
    '==',
    '!=',
    'ne',
    'lt',
    '<',
    '>=',
    'contains',
    'matches',
    '~',
    'wildcard',
    'strict',
    'in',
    '$office',
    '$',
    '&',
    '&&',
    '||',
    '^^',
    '!',
    'not',
    'and',
    'or',
    'xor',
    'true',
    'false',
    '"(a+)+"',
    '"*a**"',
    '\n',
    '"é"',
    '#',
  ];

  it('random token soup parses or fails with RulesParseError, and what parses runs', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }), fc.boolean(), (tokens, spaced) => {
        const text = tokens.join(spaced ? ' ' : '');
        let ast: ReturnType<typeof parse> | undefined;
        try {
          ast = parse(text, scheme);
        } catch (e) {
          if (!(e instanceof RulesParseError)) throw e;
          expect(e.message.startsWith(`Filter parsing error (${e.line}:${e.column}):\n`)).toBe(true);
          return;
        }
        expect(typeof compile(ast).execute(new ExecutionContext(scheme))).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('random strings never throw anything but RulesParseError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        try {
          parse(text, scheme);
        } catch (e) {
          if (!(e instanceof RulesParseError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

import { createList, Ip } from '../src/index.ts';

function createOffice() {
  return createList(Ip, ['192.0.2.0/24']);
}
