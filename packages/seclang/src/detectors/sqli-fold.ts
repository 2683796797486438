// Folds the token stream into a short fingerprint: unary signs vanish, arithmetic between plain
// values collapses into one value, qualified names (a.b) become one word, repeated words, logic
// words and adjacent strings merge. Only the top of the stack is ever rewritten, so a fingerprint
// prefix is final once later tokens arrive.

/** Tokens kept in a fingerprint. */
export const FINGERPRINT_LENGTH = 8;
/** Tokens folded before the tokenizer may stop (two past the fingerprint, for the top rewrites). */
const STACK_LIMIT = FINGERPRINT_LENGTH + 2;

// Classes whose values combine with arithmetic into one value.
const ARITH_VALUE = 'nvw';
// Classes that collapse in a comma-separated list.
const LIST_VALUE = 'nsvw';
// Classes that end an operand: after them an operator is binary, not a sign.
const OPERAND_END = 'nvws)';
// Classes a sign may stand in front of.
const SIGNABLE = 'nvwsf(';

export class FingerprintStack {
  private readonly items: string[] = [];

  get full(): boolean {
    return this.items.length >= STACK_LIMIT;
  }

  push(cls: string): void {
    const items = this.items;
    let top = items.length > 0 ? items[items.length - 1]! : '';
    if (top === 'a' && SIGNABLE.includes(cls)) {
      const below = items.length > 1 ? items[items.length - 2]! : '';
      if (below === '' || !OPERAND_END.includes(below)) {
        items.pop(); // a sign: -1, +sleep(…), ~x
        top = below;
      }
    }
    if (ARITH_VALUE.includes(cls) && (top === 'a' || top === '.') && items.length > 1) {
      const below = items[items.length - 2]!;
      if (ARITH_VALUE.includes(below)) {
        items.pop(); // 1+2, a.b, 2010-01-01: keep the left operand's class
        return;
      }
    }
    if (
      LIST_VALUE.includes(cls) &&
      top === ',' &&
      items.length > 1 &&
      LIST_VALUE.includes(items[items.length - 2]!)
    ) {
      items.pop(); // 1,2,3 and 'a', 'b': a list reads as one value
      return;
    }
    if ((cls === 'w' && top === 'w') || (cls === 'l' && top === 'l') || (cls === 's' && top === 's')) {
      return; // hello world, and not, 'a' 'b'
    }
    items.push(cls);
  }

  toString(): string {
    const items = this.items;
    return (items.length > FINGERPRINT_LENGTH ? items.slice(0, FINGERPRINT_LENGTH) : items).join('');
  }
}
