// The code builder behind the compiler. Generated source is made only of this package's fixed
// fragments and integer counters: every value that comes from the expression (strings, regexes,
// list matchers, IP addresses, integers, map keys) goes into the constants array and is named
// `c<N>` in the source. `link` refuses any source holding a character that could start a string,
// a template, a regex or a comment, so user text cannot end up inside even by mistake.

/** One generated function: its temporaries (`t<N>`) and memoised subexpressions (`m<N>`). */
export class Scope {
  private temps = 0;
  private readonly memos = new Map<string, { name: string; code: string }>();

  constructor(readonly id: number) {}

  /** A fresh temporary variable, declared at the top of this function. */
  temp(): string {
    return `t${this.id}_${this.temps++}`;
  }

  /**
   * The value of `key` computed at most once per call: whichever use runs first computes it
   * (`m<N>` starts as NC, not computed), so every use carries the same computing code.
   */
  memo(key: string, code: () => string): string {
    let memo = this.memos.get(key);
    if (memo === undefined) {
      memo = { name: `m${this.id}_${this.memos.size}`, code: code() };
      this.memos.set(key, memo);
    }
    return `(${memo.name} !== NC ? ${memo.name} : (${memo.name} = ${memo.code}))`;
  }

  /** `let …;` for the temporaries and memos used so far ('' when none). */
  declarations(): string {
    const names: string[] = [];
    for (let i = 0; i < this.temps; i++) names.push(`t${this.id}_${i}`);
    for (const m of this.memos.values()) names.push(`${m.name} = NC`);
    return names.length > 0 ? `let ${names.join(', ')};` : '';
  }
}

/**
 * The engine's canonical copy of `s` (property keys are interned), so `===` against another
 * interned string (a literal, a header name the engine already knows) is a pointer comparison.
 */
export function internalize(s: string): string {
  return Object.keys({ [s]: 0 })[0] ?? s;
}

/** Characters generated code may contain: identifiers, digits, punctuation, no quotes or slashes. */
const SAFE_SOURCE = /^[A-Za-z0-9_ \n.,;:()[\]{}=!<>&|?+-]*$/;

export class Emitter {
  private readonly values: unknown[] = [];
  private readonly byValue = new Map<unknown, number>();
  private readonly lines: string[] = [];
  private scopes = 0;
  private names = 0;

  /** The source name of a constant (`c<N>`); equal primitives and the same object share one. */
  constant(value: unknown): string {
    if (typeof value === 'string') value = internalize(value);
    let i = this.byValue.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.byValue.set(value, i);
    }
    return `c${i}`;
  }

  scope(): Scope {
    return new Scope(this.scopes++);
  }

  /** Declares `const p<N> = <code>;` before the filter function and returns `p<N>`. */
  declare(code: string): string {
    const name = `p${this.names++}`;
    this.lines.push(`const ${name} = ${code};`);
    return name;
  }

  /** An arrow function with its own scope: `(params) => { let …; return body; }`. */
  arrow(params: string, body: (scope: Scope) => string): string {
    return this.block(params, (scope) => `return ${body(scope)};`);
  }

  /** An arrow function whose body is the given statements. */
  block(params: string, statements: (scope: Scope) => string): string {
    const scope = this.scope();
    const code = statements(scope);
    return this.declare(`(${params}) => { ${scope.declarations()} ${code} }`);
  }

  /**
   * The factory source: constants unpacked, declarations, then `return <fn>`. Call the result
   * of `new Function('k', 'h', 'NC', source)` with the constants, the runtime helpers and the
   * not-computed marker.
   */
  source(fn: string): string {
    const head = this.values.map((_, i) => `const c${i} = k[${i}];`);
    const source = [...head, ...this.lines, `return ${fn};`].join('\n');
    if (!SAFE_SOURCE.test(source)) throw new Error('internal error: unsafe character in generated source');
    return source;
  }

  get constants(): readonly unknown[] {
    return this.values;
  }
}
