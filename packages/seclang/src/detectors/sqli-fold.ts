// Folding: reads tokens and reduces them to at most five, the fingerprint's letters. Values and
// the operators between them collapse (1+1 → 1), unary signs and casts vanish, compound keywords
// merge (UNION ALL), and context decides what some words are (IN ( is an operator). It keeps a
// window of tokens [left, pos) and applies the rules of sqli-fold-rules.ts to its first two or
// three; a fold restarts the window. Each token is read once, so folding is linear too.

import { type FoldWindow, foldPair, foldTriple, PAIR, TRIPLE } from './sqli-fold-rules.ts';
import { nextToken } from './sqli-lexer.ts';
import type { ScanState } from './sqli-scan.ts';
import { clearToken, copyToken, isUnaryOperator, newToken, type SqlToken, TOKEN } from './sqli-token.ts';

/** Tokens in a fingerprint. */
export const MAX_TOKENS = 5;

/** 1,(1) 1 and similar five-token shapes where the window may be folded again from the start. */
function restartsAtFive(t: SqlToken[]): boolean {
  const [a, b, c, d, e] = [t[0]!.type, t[1]!.type, t[2]!.type, t[3]!.type, t[4]!.type];
  const { number, bareword, operator, comma, leftParens, rightParens } = TOKEN;
  return (
    (a === number &&
      (b === operator || b === comma) &&
      c === leftParens &&
      d === number &&
      e === rightParens) ||
    (a === bareword &&
      b === operator &&
      c === leftParens &&
      (d === bareword || d === number) &&
      e === rightParens) ||
    (a === number && b === rightParens && c === comma && d === leftParens && e === number) ||
    (a === bareword && b === rightParens && c === operator && d === leftParens && e === bareword)
  );
}

export class Folder implements FoldWindow {
  readonly tokens: SqlToken[] = Array.from({ length: MAX_TOKENS + 3 }, newToken);
  pos = 0;
  left = 0;
  private more = true;
  private readonly lastComment = newToken();

  constructor(private readonly st: ScanState) {}

  /** Empties the window for the next reading of the state's input. */
  reset(): void {
    for (const t of this.tokens) clearToken(t);
    clearToken(this.lastComment);
    this.pos = 0;
    this.left = 0;
    this.more = true;
  }

  /** Reads until the window [left, pos) holds `size` tokens (comments are set aside). */
  private fill(size: number): void {
    const st = this.st;
    while (this.more && this.pos <= MAX_TOKENS && this.pos - this.left < size) {
      st.tok = this.tokens[this.pos]!;
      this.more = nextToken(st);
      if (!this.more) break;
      if (st.tok.type === TOKEN.comment) {
        copyToken(this.lastComment, st.tok);
      } else {
        this.lastComment.type = '';
        this.pos++;
      }
    }
  }

  /** Skips leading comments, '(', casts and unary operators; false if nothing else comes. */
  private skipLeading(): boolean {
    const st = this.st;
    st.tok = this.tokens[0]!;
    for (;;) {
      this.more = nextToken(st);
      const t = st.tok;
      if (!this.more) return false;
      if (
        !(
          t.type === TOKEN.comment ||
          t.type === TOKEN.leftParens ||
          t.type === TOKEN.sqlType ||
          isUnaryOperator(t)
        )
      ) {
        return true;
      }
    }
  }

  /** Folds the input; returns the number of tokens of the fingerprint. */
  fold(): number {
    if (!this.skipLeading()) return 0;
    this.pos = 1;
    for (;;) {
      if (this.pos >= MAX_TOKENS && restartsAtFive(this.tokens)) {
        if (this.pos > MAX_TOKENS) {
          copyToken(this.tokens[1]!, this.tokens[MAX_TOKENS]!);
          this.pos = 2;
        } else {
          this.pos = 1;
        }
        this.left = 0;
      }
      if (!this.more || this.left >= MAX_TOKENS) {
        this.left = this.pos;
        break;
      }
      this.fill(2);
      if (this.pos - this.left < 2) {
        this.left = this.pos;
        continue;
      }
      const pair = foldPair(this);
      if (pair === PAIR.folded) continue;
      if (pair === PAIR.stop) return this.left;
      this.fill(3);
      if (this.pos - this.left < 3) {
        this.left = this.pos;
        continue;
      }
      if (foldTriple(this) === TRIPLE.folded) continue;
      this.left += 1;
    }
    // a trailing comment is kept as the last token when there is room
    if (this.left < MAX_TOKENS && this.lastComment.type === TOKEN.comment) {
      copyToken(this.tokens[this.left]!, this.lastComment);
      this.left += 1;
    }
    return Math.min(this.left, MAX_TOKENS);
  }
}
