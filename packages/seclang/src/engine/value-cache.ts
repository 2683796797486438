// Records of short values shared by every request a rule set evaluates. Header values, cookie values
// and common arguments recur from one request to the next (the same User-Agent, Accept, Referer…);
// their record (transform-chain.ts) keeps what was worked out for them: the transformations' results,
// the character classes, and which links of the rule set are known not to match them (a link whose
// operator is pure: its result depends on the value alone). All of it is a function of the value, so
// sharing it between requests is exact. Bounded: values up to `maxLength` characters, and when the
// current generation holds CHARS_PER_GENERATION characters of values it becomes the previous one (a
// value found there moves back); the older generation is dropped.

import { ValueRec } from './transform-chain.ts';

const CHARS_PER_GENERATION = 512 * 1024;

export class ValueCache {
  private current = new Map<string, ValueRec>();
  private previous = new Map<string, ValueRec>();
  private chars = 0;
  /** Longer values get a record of their own transaction only (recFor). */
  readonly maxLength = 1024;

  /** The shared record of `value` (at most `maxLength` characters). */
  rec(value: string): ValueRec {
    let rec = this.current.get(value);
    if (rec !== undefined) return rec;
    rec = this.previous.get(value) ?? new ValueRec(value);
    if (this.chars >= CHARS_PER_GENERATION) {
      this.previous = this.current;
      this.current = new Map();
      this.chars = 0;
    }
    this.current.set(value, rec);
    this.chars += value.length + 64;
    return rec;
  }

  /** Forgets every record (the rule set changed: its links' bits mean something else). */
  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.chars = 0;
  }
}
