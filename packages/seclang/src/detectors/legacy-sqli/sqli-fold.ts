// Folds the token stream into a short fingerprint: unary signs vanish, arithmetic between plain
// values collapses into one value, qualified names (a.b) become one word, repeated words, logic
// words and adjacent strings merge. Only the top of the stack is ever rewritten, so a fingerprint
// prefix is final once later tokens arrive.

/** Tokens kept in a fingerprint. */
export const FINGERPRINT_LENGTH = 8;
/** Tokens folded before the tokenizer may stop (two past the fingerprint, for the top rewrites). */
const STACK_LIMIT = FINGERPRINT_LENGTH + 2;

// Class traits, looked up by letter code.
const ARITH_VALUE = 1; // combines with arithmetic into one value: n v w
const LIST_VALUE = 2; // collapses in a comma-separated list: n s v w
const OPERAND_END = 4; // ends an operand, so a following operator is binary: n v w s )
const SIGNABLE = 8; // may carry a sign: n v w s f (
const TRAITS = new Uint8Array(128);
for (const [letters, trait] of [
  ['nvw', ARITH_VALUE],
  ['nsvw', LIST_VALUE],
  ['nvws)', OPERAND_END],
  ['nvwsf(', SIGNABLE],
] as const) {
  for (const letter of letters) TRAITS[letter.charCodeAt(0)]! |= trait;
}

const A = 97; // 'a'
const DOT = 46;
const COMMA = 44;

function traits(code: number): number {
  return code < 128 ? TRAITS[code]! : 0;
}

export class FingerprintStack {
  // The stack as class-letter codes; the tokenizer stops at STACK_LIMIT entries.
  private readonly items = new Uint8Array(STACK_LIMIT + 8);
  private n = 0;

  get full(): boolean {
    return this.n >= STACK_LIMIT;
  }

  /** Empties the stack for the next fingerprint. */
  reset(): void {
    this.n = 0;
  }

  push(cls: string): void {
    const items = this.items;
    const code = cls.charCodeAt(0);
    const own = traits(code);
    let n = this.n;
    let top = n > 0 ? items[n - 1]! : 0;
    let below = n > 1 ? items[n - 2]! : 0;
    if (top === A && own & SIGNABLE && !(traits(below) & OPERAND_END)) {
      n--; // a sign: -1, +sleep(…), ~x
      top = below;
      below = n > 1 ? items[n - 2]! : 0;
    }
    if (own & ARITH_VALUE && (top === A || top === DOT) && traits(below) & ARITH_VALUE) {
      this.n = n - 1; // 1+2, a.b, 2010-01-01: keep the left operand's class
    } else if (own & LIST_VALUE && top === COMMA && traits(below) & LIST_VALUE) {
      this.n = n - 1; // 1,2,3 and 'a', 'b': a list reads as one value
    } else if (top === code && (cls === 'w' || cls === 'l' || cls === 's')) {
      this.n = n; // hello world, and not, 'a' 'b'
    } else if (n < items.length) {
      items[n] = code;
      this.n = n + 1;
    }
  }

  toString(): string {
    const k = Math.min(this.n, FINGERPRINT_LENGTH);
    let out = '';
    for (let i = 0; i < k; i++) out += String.fromCharCode(this.items[i]!);
    return out;
  }
}
