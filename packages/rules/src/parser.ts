// Recursive descent over the lexer, scheme-free. Precedence, loosest first: or ||, xor ^^,
// and &&, not !. Recursion happens only through `enter`, which enforces the depth limit, so a
// deeply nested expression is an error, never a stack overflow.

import type {
  CallExpr,
  CompareExpr,
  CompareOp,
  Expr,
  IndexKey,
  InlineList,
  ListItem,
  LiteralExpr,
  LogicalOp,
  Rhs,
  ValueExpr,
} from './ast.ts';
import { fail, reasons, type Span } from './errors.ts';
import { Lexer } from './lexer.ts';
import type { Limits } from './limits.ts';
import { parseBareLiteral } from './literals/bare.ts';
import { parseIntLiteral } from './literals/int.ts';

const PUNCT_OPS: readonly (readonly [string, CompareOp])[] = [
  ['==', 'eq'],
  ['!=', 'ne'],
  ['<=', 'le'],
  ['>=', 'ge'],
  ['<', 'lt'],
  ['>', 'gt'],
  ['~', 'matches'],
  ['&', 'bitwise_and'],
];

const WORD_OPS: ReadonlySet<string> = new Set([
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'matches',
  'wildcard',
  'in',
  'bitwise_and',
]);

const LOGICAL: readonly (readonly [LogicalOp, string, string])[] = [
  ['or', 'or', '||'],
  ['xor', 'xor', '^^'],
  ['and', 'and', '&&'],
];

/** Index of the first character whose UTF-8 bytes go past `limit`. */
function indexPastByteLimit(text: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xdc00 && c <= 0xdfff)
      n += 0; // low surrogate: counted with its high half
    else if (c >= 0xd800 && c <= 0xdbff) n += 4;
    else n += 3;
    if (n > limit) return i;
  }
  return text.length;
}

function join(a: Span, b: Span): Span {
  return { start: a.start, end: b.end };
}

export function parseSyntax(source: string, limits: Limits): Expr {
  if (source.length > limits.maxLength / 3) {
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > limits.maxLength) {
      const at = indexPastByteLimit(source, limits.maxLength);
      fail({ start: at, end: source.length }, reasons.tooLong(bytes, limits.maxLength));
    }
  }
  const parser = new Parser(source, limits);
  const expr = parser.parseExpr();
  if (!parser.lexer.atEnd()) fail(parser.lexer.restOfLine(), reasons.unrecognisedInput);
  return expr;
}

class Parser {
  readonly lexer: Lexer;
  private depth = 0;

  constructor(
    source: string,
    private readonly limits: Limits,
  ) {
    this.lexer = new Lexer(source);
  }

  private enter(span: Span): void {
    if (++this.depth > this.limits.maxDepth) fail(span, reasons.tooDeep(this.limits.maxDepth));
  }

  private leave(): void {
    this.depth--;
  }

  parseExpr(): Expr {
    return this.parseLogical(0);
  }

  private parseLogical(level: number): Expr {
    const entry = LOGICAL[level];
    if (!entry) return this.parseUnary();
    const [op, word, punct] = entry;
    const first = this.parseLogical(level + 1);
    const items: Expr[] = [first];
    while (this.lexer.eatWord(word) || this.lexer.eatPunct(punct)) items.push(this.parseLogical(level + 1));
    if (items.length === 1) return first;
    const last = items[items.length - 1] ?? first;
    return { kind: 'logical', op, items, span: join(first.span, last.span) };
  }

  private parseUnary(): Expr {
    const notSpan = this.lexer.eatWord('not') ?? this.lexer.eatPunct('!');
    if (!notSpan) return this.parsePrimary();
    this.enter(notSpan);
    const arg = this.parseUnary();
    this.leave();
    return { kind: 'not', arg, span: join(notSpan, arg.span) };
  }

  private parsePrimary(): Expr {
    const lx = this.lexer;
    const open = lx.eatPunct('(');
    if (open) {
      this.enter(open);
      const inner = this.parseExpr();
      const close = lx.expectPunct(')');
      this.leave();
      return { ...inner, span: join(open, close) };
    }
    const word = lx.peekWord();
    if (word && (word.text === 'true' || word.text === 'false')) {
      lx.pos = word.span.end;
      return { kind: 'bool', value: word.text === 'true', span: word.span };
    }
    if (!word) fail(lx.restOfLine(), lx.atEnd() ? reasons.expected('identifier') : reasons.unrecognisedInput);
    const lhs = this.parseValue();
    const op = this.parseCompareOp();
    if (!op) return lhs;
    const rhs = this.parseRhs(op.op);
    const compare: CompareExpr = {
      kind: 'compare',
      op: op.op,
      lhs,
      rhs,
      span: join(lhs.span, rhs.span),
      opSpan: op.span,
    };
    return compare;
  }

  private parseValue(): ValueExpr {
    const lx = this.lexer;
    const id = lx.readIdentifier();
    let node: ValueExpr;
    if (lx.peekCode() === 40) {
      node = this.parseCall(id.text, id.span);
    } else {
      node = { kind: 'field', name: id.text, span: id.span };
    }
    let levels = 0;
    for (let open = lx.eatPunct('['); open; open = lx.eatPunct('[')) {
      this.enter(open);
      levels++;
      const key = this.parseIndexKey();
      const close = lx.expectPunct(']');
      node = { kind: 'index', target: node, key: key.key, keySpan: key.span, span: join(node.span, close) };
    }
    this.depth -= levels;
    return node;
  }

  private parseIndexKey(): { key: IndexKey; span: Span } {
    const lx = this.lexer;
    const star = lx.eatPunct('*');
    if (star) return { key: { kind: 'each' }, span: star };
    if (lx.atString()) {
      const s = lx.readString('basic');
      return { key: { kind: 'key', value: s.value, raw: s.raw }, span: s.span };
    }
    if (lx.atBareLiteral(false)) {
      const t = lx.readBare();
      const n = parseIntLiteral(t.text, t.span);
      if (n < 0) fail(t.span, 'array index must not be negative');
      return { key: { kind: 'position', value: n }, span: t.span };
    }
    fail(lx.here(), reasons.expected('"key", index or *'));
  }

  private parseCall(name: string, nameSpan: Span): CallExpr {
    const lx = this.lexer;
    const open = lx.expectPunct('(');
    this.enter(open);
    const args: Expr[] = [];
    let close = lx.eatPunct(')');
    while (!close) {
      args.push(this.parseArg());
      if (lx.eatPunct(',')) continue;
      close = lx.expectPunct(')');
    }
    this.leave();
    return { kind: 'call', name, args, span: join(nameSpan, close), nameSpan };
  }

  private parseArg(): Expr {
    const lx = this.lexer;
    if (lx.atString()) {
      const s = lx.readString('basic');
      const lit: LiteralExpr = { kind: 'literal', value: { kind: 'string', ...s }, span: s.span };
      return lit;
    }
    if (lx.atBareLiteral(false)) {
      const t = lx.readBare();
      const value = parseBareLiteral(t.text, t.span);
      if (value.kind !== 'int' && value.kind !== 'ip') fail(t.span, reasons.expected('a single value'));
      return { kind: 'literal', value, span: t.span };
    }
    return this.parseExpr();
  }

  private parseCompareOp(): { op: CompareOp; span: Span } | undefined {
    const lx = this.lexer;
    for (const [p, op] of PUNCT_OPS) {
      const span = lx.eatPunct(p);
      if (span) return { op, span };
    }
    const word = lx.peekWord();
    if (!word) return undefined;
    if (word.text === 'strict') {
      lx.pos = word.span.end;
      const w = lx.eatWord('wildcard');
      if (!w) fail(lx.here(), reasons.expectedLiteral('wildcard'));
      return { op: 'strict_wildcard', span: join(word.span, w) };
    }
    if (!WORD_OPS.has(word.text)) return undefined;
    lx.pos = word.span.end;
    return { op: word.text as CompareOp, span: word.span };
  }

  private parseRhs(op: CompareOp): Rhs {
    const lx = this.lexer;
    if (op === 'in') {
      const open = lx.eatPunct('{');
      if (open) return this.parseList(open);
      if (lx.peekCode() === 36) {
        const name = lx.readListName();
        return { kind: 'list_ref', name: name.text, span: name.span };
      }
      // `ip.src in 203.0.113.0/24` (a one-item list, as in Cloudflare's docs)
      const item = this.parseListItem();
      return { kind: 'list', items: [item], span: item.span };
    }
    if (lx.atString()) {
      const s = lx.readString(op === 'matches' ? 'regex' : 'basic');
      return { kind: 'string', ...s };
    }
    if (lx.atBareLiteral(true)) {
      const t = lx.readBare();
      return parseBareLiteral(t.text, t.span);
    }
    fail(lx.restOfLine(), reasons.expected('literal'));
  }

  private parseListItem(): ListItem {
    const lx = this.lexer;
    if (lx.atString()) return { kind: 'string', ...lx.readString('basic') };
    if (lx.atBareLiteral(true)) {
      const t = lx.readBare();
      return parseBareLiteral(t.text, t.span);
    }
    fail(lx.here(), lx.atEnd() ? reasons.expectedLiteral('}') : reasons.expected('list item'));
  }

  private parseList(open: Span): InlineList {
    const lx = this.lexer;
    const items: ListItem[] = [];
    for (;;) {
      const close = lx.eatPunct('}');
      if (close) return { kind: 'list', items, span: join(open, close) };
      const item = this.parseListItem();
      if (items.length >= this.limits.maxListItems) {
        fail(item.span, reasons.listTooLong(items.length + 1, this.limits.maxListItems));
      }
      items.push(item);
    }
  }
}
