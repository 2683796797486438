// The folding rules over the first two or three tokens of the window [left, pos). A rule that
// folds moves `pos` back (dropping tokens) and usually restarts the window at 0.

import { beginsPhrase, lookupWord } from './sqli-keywords.ts';
import {
  copyToken,
  isArithmeticOperator,
  isUnaryOperator,
  type SqlToken,
  TOKEN,
  TOKEN_VALUE_MAX,
  tokenIs,
} from './sqli-token.ts';

export interface FoldWindow {
  readonly tokens: SqlToken[];
  pos: number;
  left: number;
}

export const PAIR = { folded: 0, next: 1, stop: 2 } as const;
export const TRIPLE = { folded: 0, next: 1 } as const;

const MERGE_FIRST = new Set<string>('knoUfEtT');
const MERGE_SECOND = new Set<string>('knoUfEtT&');

/** UNION + ALL → "UNION ALL" when the phrase is in the keyword table. */
function mergeWords(a: SqlToken, b: SqlToken): boolean {
  if (!MERGE_FIRST.has(a.type) || !MERGE_SECOND.has(b.type)) return false;
  if (a.val.length + b.val.length + 1 > TOKEN_VALUE_MAX || !beginsPhrase(a.val)) return false;
  const phrase = `${a.val} ${b.val}`;
  const type = lookupWord(phrase);
  if (type === '') return false;
  a.type = type;
  a.val = phrase;
  return true;
}

/** Names that are functions when '(' follows but common enough as column names to be words. */
const FUNCTION_WHEN_CALLED = new Set([
  'USER_ID',
  'USER_NAME',
  'DATABASE',
  'PASSWORD',
  'USER',
  'CURRENT_USER',
  'CURRENT_DATE',
  'CURRENT_TIME',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
]);
const IN = new Set(['IN', 'NOT IN']);
const LIKE = new Set(['LIKE', 'NOT LIKE']);
const USER = new Set(['USER']);

function startsWithIf(val: string): boolean {
  return (val[0] === 'I' || val[0] === 'i') && (val[1] === 'F' || val[1] === 'f');
}

function drop(w: FoldWindow, count: number, restart: boolean): typeof PAIR.folded {
  w.pos -= count;
  if (restart) w.left = 0;
  return PAIR.folded;
}

function dropBackOne(w: FoldWindow): typeof PAIR.folded {
  w.pos -= 1;
  if (w.left > 0) w.left -= 1;
  return PAIR.folded;
}

export function foldPair(w: FoldWindow): number {
  const a = w.tokens[w.left]!;
  const b = w.tokens[w.left + 1]!;
  const { string, semicolon, operator, logicOperator, leftParens, rightParens, bareword } = TOKEN;
  if (a.type === string && b.type === string) return drop(w, 1, false); // 'a' 'b'
  if (a.type === semicolon && b.type === semicolon) return drop(w, 1, false); // ;;
  if ((a.type === operator || a.type === logicOperator) && (isUnaryOperator(b) || b.type === TOKEN.sqlType)) {
    return drop(w, 1, true);
  }
  if (a.type === leftParens && isUnaryOperator(b)) return dropBackOne(w);
  if (mergeWords(a, b)) return dropBackOne(w);
  if (a.type === semicolon && b.type === TOKEN.function && startsWithIf(b.val)) {
    b.type = TOKEN.tsql; // ; IF 1=1 … is Transact-SQL control flow (any function named IF…)
    return PAIR.folded;
  }
  if (
    (a.type === bareword || a.type === TOKEN.variable) &&
    b.type === leftParens &&
    tokenIs(a, FUNCTION_WHEN_CALLED)
  ) {
    a.type = TOKEN.function;
    return PAIR.folded;
  }
  if (a.type === TOKEN.keyword && tokenIs(a, IN)) {
    a.type = b.type === leftParens ? operator : bareword;
    return PAIR.folded;
  }
  if (a.type === operator && tokenIs(a, LIKE)) {
    if (b.type === leftParens) a.type = TOKEN.function; // LIKE(…) is a function
    return PAIR.next;
  }
  if (a.type === TOKEN.sqlType && 'n1t(fvs'.includes(b.type)) {
    copyToken(a, b); // a cast name before a value vanishes
    return drop(w, 1, true);
  }
  if (a.type === TOKEN.collate && b.type === bareword) {
    // collation names have a '_' (looked for as in a C string: up to a NUL)
    const nul = b.val.indexOf('\0');
    if ((nul < 0 ? b.val : b.val.slice(0, nul)).includes('_')) {
      b.type = TOKEN.sqlType;
      w.left = 0;
    }
    return PAIR.next;
  }
  if (a.type === TOKEN.backslash) {
    if (isArithmeticOperator(b)) {
      a.type = TOKEN.number; // T-SQL reads \%1 as 0 % 1
    } else {
      copyToken(a, b);
      w.pos -= 1;
    }
    w.left = 0;
    return PAIR.folded;
  }
  if (
    (a.type === leftParens && b.type === leftParens) ||
    (a.type === rightParens && b.type === rightParens)
  ) {
    return drop(w, 1, true);
  }
  if (a.type === TOKEN.leftBrace && b.type === bareword) {
    if (b.val.length === 0) {
      b.type = TOKEN.evil; // { `` … is MySQL's {``.``.id}: refused
      w.left += 2;
      return PAIR.stop;
    }
    return drop(w, 2, true); // ODBC {foo expr} → expr
  }
  if (b.type === TOKEN.rightBrace) return drop(w, 1, true);
  return PAIR.next;
}

const VALUE = new Set<string>('n1vs');

export function foldTriple(w: FoldWindow): number {
  const a = w.tokens[w.left]!;
  const b = w.tokens[w.left + 1]!;
  const c = w.tokens[w.left + 2]!;
  const { number, operator, bareword, variable, comma, leftParens, dot } = TOKEN;
  if (a.type === number && b.type === operator && c.type === number) return drop(w, 2, true);
  if (a.type === operator && b.type !== leftParens && c.type === operator) return drop(w, 2, true);
  if (a.type === TOKEN.logicOperator && c.type === TOKEN.logicOperator) return drop(w, 2, true);
  if (
    a.type === variable &&
    b.type === operator &&
    (c.type === variable || c.type === number || c.type === bareword)
  ) {
    return drop(w, 2, true);
  }
  if (
    (a.type === bareword || a.type === number) &&
    b.type === operator &&
    (c.type === number || c.type === bareword)
  ) {
    return drop(w, 2, true);
  }
  if (VALUE.has(a.type) && b.type === operator && b.val === '::' && c.type === TOKEN.sqlType)
    return drop(w, 2, true);
  if (VALUE.has(a.type) && b.type === comma && VALUE.has(c.type)) return drop(w, 2, true);
  const unary = isUnaryOperator(b);
  if (
    (a.type === TOKEN.expression || a.type === TOKEN.group || a.type === comma) &&
    unary &&
    c.type === leftParens
  ) {
    copyToken(b, c); // SELECT + ( → SELECT (
    return drop(w, 1, true);
  }
  if (
    (a.type === TOKEN.keyword || a.type === TOKEN.expression || a.type === TOKEN.group) &&
    unary &&
    'n1vsf'.includes(c.type)
  ) {
    copyToken(b, c); // SELECT - 1 → SELECT 1
    return drop(w, 1, true);
  }
  if (a.type === comma && unary && VALUE.has(c.type)) {
    copyToken(b, c); // 1,-1 → 1,1, then back up to fold the list
    return drop(w, 3, true);
  }
  if (a.type === comma && unary && c.type === TOKEN.function) {
    copyToken(b, c); // 1,-sin(1) → 1,sin(1)
    return drop(w, 1, true);
  }
  if (a.type === bareword && b.type === dot && c.type === bareword) return drop(w, 2, true); // db.table
  if (a.type === TOKEN.expression && b.type === dot && c.type === bareword) {
    copyToken(b, c); // select . `foo` → select `foo`
    return drop(w, 1, true);
  }
  if (
    a.type === TOKEN.function &&
    b.type === leftParens &&
    c.type !== TOKEN.rightParens &&
    tokenIs(a, USER)
  ) {
    a.type = bareword; // USER() takes no argument: USER(x) is a column
  }
  return TRIPLE.next;
}
