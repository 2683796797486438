// Errors of the Rules language. A parse error reads like wirefilter's ParseError:
//   Filter parsing error (1:17):
//   http.host eq 1234
//                ^^^^ expected value of type Bytes, but got Int

export interface Span {
  /** Offset of the first character (UTF-16 code units into the expression). */
  readonly start: number;
  /** Offset just past the last character. */
  readonly end: number;
}

/** Recurring reasons, defined once (wirefilter's LexErrorKind wording). */
export const reasons = {
  unknownIdentifier: 'unknown identifier',
  unknownList: 'unknown list',
  unrecognisedInput: 'unrecognised input',
  missingEndingQuote: 'could not find an ending quote',
  invalidEscape: 'expected ", xHH or OOO after \\',
  invalidArgumentCount: 'invalid number of arguments',
  incompatibleRangeBounds: 'incompatible range bounds',
  mapEach: 'invalid use of map each access operator',
  doubleStar: 'wildcard contains a double star',
  unsupportedOp: (type: string) => `cannot perform this operation on type ${type}`,
  expected: (what: string) => `expected ${what}`,
  expectedLiteral: (literal: string) => `expected literal ${JSON.stringify(literal)}`,
  typeMismatch: (expected: string, actual: string) => `expected value of type ${expected}, but got ${actual}`,
  argumentType: (index: number, expected: string, actual: string) =>
    `invalid type of argument #${index}: expected value of type ${expected}, but got ${actual}`,
  argumentKind: (index: number, expected: string, actual: string) =>
    `invalid kind of argument #${index}: expected ${expected}, but got ${actual}`,
  argumentValue: (index: number, why: string) => `invalid value of argument #${index}: ${why}`,
  parseInt: (why: string, radix: number) => `${why} while parsing with radix ${radix}`,
  tooManyStars: (count: number, limit: number) =>
    `wildcard has ${count} star metacharacters, but the limit is ${limit}`,
  tooLong: (length: number, limit: number) =>
    `expression is too long: ${length} bytes, but the limit is ${limit}`,
  tooDeep: (limit: number) => `expression is nested too deeply: the limit is ${limit} levels`,
  listTooLong: (count: number, limit: number) => `list has ${count} items, but the limit is ${limit}`,
} as const;

export interface ErrorLocation {
  readonly line: number;
  readonly column: number;
  /** The text of the line the error starts on. */
  readonly lineText: string;
  /** Caret count, at least 1, cut at the end of the line. */
  readonly caretCount: number;
}

export function locate(source: string, span: Span): ErrorLocation {
  const start = Math.max(0, Math.min(span.start, source.length));
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < start; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  let lineEnd = source.indexOf('\n', lineStart);
  if (lineEnd === -1) lineEnd = source.length;
  let lineText = source.slice(lineStart, lineEnd);
  if (lineText.endsWith('\r')) lineText = lineText.slice(0, -1);
  const column = start - lineStart + 1;
  const caretCount = Math.max(1, Math.min(span.end, lineStart + lineText.length) - start);
  return { line, column, lineText, caretCount };
}

export function formatParseError(source: string, span: Span, reason: string): string {
  const { line, column, lineText, caretCount } = locate(source, span);
  return (
    `Filter parsing error (${line}:${column}):\n` +
    `${lineText}\n` +
    `${' '.repeat(column - 1)}${'^'.repeat(caretCount)} ${reason}\n`
  );
}

/** Thrown by `parse` for any syntax, type or limit error in an expression. */
export class RulesParseError extends Error {
  override readonly name = 'RulesParseError';
  readonly line: number;
  readonly column: number;
  readonly span: Span;
  /** The reason alone, e.g. `unknown identifier`. */
  readonly reason: string;
  readonly source: string;

  constructor(source: string, span: Span, reason: string) {
    super(formatParseError(source, span, reason));
    const loc = locate(source, span);
    this.line = loc.line;
    this.column = loc.column;
    this.span = span;
    this.reason = reason;
    this.source = source;
  }
}

/** Internal: thrown by the stages with a span; `parse` turns it into a RulesParseError. */
export class SpannedError extends Error {
  constructor(
    readonly span: Span,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export function fail(span: Span, reason: string): never {
  throw new SpannedError(span, reason);
}

/** Thrown when a context value does not match the field's declared type, or a name is unknown. */
export class RulesContextError extends Error {
  override readonly name = 'RulesContextError';
}

/** Thrown when a scheme is built wrongly (duplicate or malformed names). */
export class RulesSchemeError extends Error {
  override readonly name = 'RulesSchemeError';
}
