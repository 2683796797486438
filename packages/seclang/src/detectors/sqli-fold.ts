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
  // The stack as a string of class letters: cheaper than an array for at most ten entries.
  private items = '';

  get full(): boolean {
    return this.items.length >= STACK_LIMIT;
  }

  push(cls: string): void {
    let items = this.items;
    const code = cls.charCodeAt(0);
    const own = traits(code);
    let n = items.length;
    let top = n > 0 ? items.charCodeAt(n - 1) : 0;
    let below = n > 1 ? items.charCodeAt(n - 2) : 0;
    if (top === A && own & SIGNABLE && !(traits(below) & OPERAND_END)) {
      items = items.slice(0, -1); // a sign: -1, +sleep(…), ~x
      n--;
      top = below;
      below = n > 1 ? items.charCodeAt(n - 2) : 0;
    }
    if (own & ARITH_VALUE && (top === A || top === DOT) && traits(below) & ARITH_VALUE) {
      this.items = items.slice(0, -1); // 1+2, a.b, 2010-01-01: keep the left operand's class
    } else if (own & LIST_VALUE && top === COMMA && traits(below) & LIST_VALUE) {
      this.items = items.slice(0, -1); // 1,2,3 and 'a', 'b': a list reads as one value
    } else if (top === code && (cls === 'w' || cls === 'l' || cls === 's')) {
      this.items = items; // hello world, and not, 'a' 'b'
    } else {
      this.items = items + cls;
    }
  }

  toString(): string {
    return this.items.length > FINGERPRINT_LENGTH ? this.items.slice(0, FINGERPRINT_LENGTH) : this.items;
  }
}
