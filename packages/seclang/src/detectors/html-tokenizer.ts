// The HTML5 tokenizer that the XSS detector reads markup with. It follows the token model of
// libinjection's tokenizer (the one ModSecurity's @detectXSS and CRS 941100 use), forgiving and
// IE-aware as that one is: NUL bytes count as white space between attributes and are skipped in
// tag names, `<%…%>` is a comment, a back-quote opens an attribute value, and an end tag with
// attributes (`</a b>`) reports its name as an opening one. Tokens are offsets into the input;
// every state either consumes input or emits a token, so one pass is linear.

import { commentClose } from './html-comment.ts';

/** Token types, named as libinjection's tokenizer tests name them (testdata/libinjection). */
export type HtmlTokenType =
  | 'DATA_TEXT'
  | 'TAG_NAME_OPEN'
  | 'TAG_NAME_CLOSE'
  | 'TAG_NAME_SELFCLOSE'
  | 'TAG_CLOSE'
  | 'ATTR_NAME'
  | 'ATTR_VALUE'
  | 'TAG_COMMENT'
  | 'DOCTYPE';

/**
 * Where reading starts: page text, between a tag's attributes (after an unquoted value), or
 * inside an attribute value opened with ', " or `.
 */
export type HtmlStart = 'data' | 'attributes' | "'" | '"' | '`';

type State =
  | 'data'
  | 'tag-open'
  | 'end-tag-open'
  | 'tag-name'
  | 'tag-name-close'
  | 'before-attribute-name'
  | 'after-attribute-name'
  | 'before-attribute-value'
  | 'attribute-value-quoted'
  | 'after-attribute-value-quoted'
  | 'self-closing-start-tag'
  | 'markup-declaration-open'
  | 'comment'
  | 'bogus-comment'
  | 'percent-comment'
  | 'cdata'
  | 'doctype'
  | 'eof';

const GT = 62;
const SLASH = 47;
const EQUALS = 61;
const BANG = 33;
const QUESTION = 63;
const PERCENT = 37;

/** Separates attributes: space, \t \n \v \f \r, and NUL (old IE ignores it). */
export function isHtmlSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** `s` has `lower` (lower-case ASCII) at `at`, ignoring ASCII case only. */
export function startsWithAsciiCaseless(s: string, at: number, lower: string): boolean {
  if (s.length - at < lower.length) return false;
  for (let k = 0; k < lower.length; k++) {
    const c = s.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

const START_STATE: Record<HtmlStart, State> = {
  data: 'data',
  attributes: 'before-attribute-name',
  "'": 'attribute-value-quoted',
  '"': 'attribute-value-quoted',
  '`': 'attribute-value-quoted',
};

export class HtmlTokenizer {
  /** The current token: its type and [start, end) in the input. */
  type: HtmlTokenType = 'DATA_TEXT';
  start = 0;
  end = 0;

  private readonly input: string;
  private pos = 0;
  private state: State;
  private quote = 0;
  /** Inside `</…`: a name ended by ">" is a closing tag. Survives attributes, as in libinjection. */
  private inEndTag = false;

  constructor(input: string, start: HtmlStart) {
    this.input = input;
    this.state = START_STATE[start];
    if (start !== 'data' && start !== 'attributes') this.quote = start.charCodeAt(0);
  }

  /** Reads the next token; false at the end of input. */
  next(): boolean {
    let step = this.run(this.state);
    while (typeof step === 'string') step = this.run(step);
    return step;
  }

  /** Runs one state: true when it emitted a token, false at the end, or the state to run next. */
  private run(state: State): boolean | State {
    switch (state) {
      case 'data':
        return this.data();
      case 'tag-open':
        return this.tagOpen();
      case 'end-tag-open':
        return this.endTagOpen();
      case 'tag-name':
        return this.tagName();
      case 'tag-name-close':
        this.inEndTag = false;
        this.pos++;
        this.state = this.pos < this.input.length ? 'data' : 'eof';
        return this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
      case 'before-attribute-name':
      case 'after-attribute-name':
        return this.betweenAttributes(state === 'after-attribute-name');
      case 'before-attribute-value':
        return this.beforeAttributeValue();
      case 'attribute-value-quoted':
        return this.quotedValue();
      case 'after-attribute-value-quoted':
      case 'self-closing-start-tag':
        return this.afterValueOrSlash(state === 'self-closing-start-tag');
      case 'markup-declaration-open':
        return this.markupDeclaration();
      case 'comment': {
        const [close, length] = commentClose(this.input, this.pos);
        return this.emitUntil('TAG_COMMENT', close, length);
      }
      case 'bogus-comment': // <?…>, <!x…>, </ …>
        return this.emitUntil('TAG_COMMENT', this.input.indexOf('>', this.pos), 1);
      case 'percent-comment': // <%…%>, a comment in old IE and Safari
        return this.emitUntil('TAG_COMMENT', this.input.indexOf('%>', this.pos), 2);
      case 'cdata': // <![CDATA[…]]> reads as text
        return this.emitUntil('DATA_TEXT', this.input.indexOf(']]>', this.pos), 3);
      case 'doctype':
        return this.emitUntil('DOCTYPE', this.input.indexOf('>', this.pos), 1);
      case 'eof':
        return false;
    }
  }

  private data(): boolean | State {
    const s = this.input;
    const from = this.pos;
    const lt = s.indexOf('<', from);
    if (lt === -1) {
      this.state = 'eof';
      return s.length > from && this.emit('DATA_TEXT', from, s.length);
    }
    this.pos = lt + 1;
    this.state = 'tag-open';
    return lt > from ? this.emit('DATA_TEXT', from, lt) : 'tag-open';
  }

  /** Just after "<". */
  private tagOpen(): boolean | State {
    if (this.pos >= this.input.length) return false; // a "<" that ends the input
    const c = this.input.charCodeAt(this.pos);
    if (isAsciiLetter(c) || c === 0) return 'tag-name';
    if (c === BANG || c === QUESTION || c === PERCENT || c === SLASH) {
      this.pos++;
      if (c === SLASH) this.inEndTag = true;
      return c === BANG
        ? 'markup-declaration-open'
        : c === QUESTION
          ? 'bogus-comment'
          : c === PERCENT
            ? 'percent-comment'
            : 'end-tag-open';
    }
    this.state = 'data'; // a lone "<" is text
    return this.emit('DATA_TEXT', this.pos - 1, this.pos);
  }

  /** Just after "</". */
  private endTagOpen(): boolean | State {
    if (this.pos >= this.input.length) return false;
    const c = this.input.charCodeAt(this.pos);
    if (c === GT) return 'data';
    if (isAsciiLetter(c)) return 'tag-name';
    this.inEndTag = false;
    return 'bogus-comment';
  }

  /** Before an attribute name, or after one (where "=" opens its value). */
  private betweenAttributes(afterName: boolean): boolean | State {
    const c = this.skipSpaces();
    if (c === -1) return false;
    if (c === SLASH) {
      this.pos++;
      return 'self-closing-start-tag';
    }
    if (c === EQUALS && afterName) {
      this.pos++;
      return 'before-attribute-value';
    }
    if (c === GT && afterName) return 'tag-name-close';
    if (c === GT) {
      this.state = 'data'; // the end-tag flag is kept here
      this.pos++;
      return this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
    }
    return this.attributeName();
  }

  private beforeAttributeValue(): boolean | State {
    const c = this.skipSpaces();
    if (c === -1) {
      this.state = 'eof';
      return false;
    }
    if (c !== 34 && c !== 39 && c !== 96) return this.unquotedValue();
    this.quote = c;
    return 'attribute-value-quoted';
  }

  /** After a quoted value's closing quote, or after "/" in a tag. */
  private afterValueOrSlash(slash: boolean): boolean | State {
    if (this.pos >= this.input.length) return false;
    const c = this.input.charCodeAt(this.pos);
    if (c === GT) {
      this.state = 'data';
      this.pos++;
      return slash
        ? this.emit('TAG_NAME_SELFCLOSE', this.pos - 2, this.pos)
        : this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
    }
    if (slash) return 'before-attribute-name';
    if (c === SLASH || isHtmlSpace(c)) this.pos++;
    return c === SLASH ? 'self-closing-start-tag' : 'before-attribute-name';
  }

  private emit(type: HtmlTokenType, start: number, end: number): true {
    this.type = type;
    this.start = start;
    this.end = end;
    return true;
  }

  /**
   * Skips white space and NULs; returns the next character, or -1 at the end or at a 0xFF byte,
   * which libinjection reads as its end-of-input mark there (a signed char), so it must here too.
   */
  private skipSpaces(): number {
    const s = this.input;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0xff) return -1;
      if (!isHtmlSpace(c)) return c;
      this.pos++;
    }
    return -1;
  }

  private tagName(): boolean {
    const s = this.input;
    const from = this.pos;
    for (let i = from; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0) continue; // NULs inside a tag name are ignored
      if (isHtmlSpace(c) || c === SLASH) {
        this.pos = i + 1;
        this.state = c === SLASH ? 'self-closing-start-tag' : 'before-attribute-name';
        return this.emit('TAG_NAME_OPEN', from, i);
      }
      if (c === GT) {
        if (this.inEndTag) {
          this.inEndTag = false;
          this.pos = i + 1;
          this.state = 'data';
          return this.emit('TAG_CLOSE', from, i);
        }
        this.pos = i;
        this.state = 'tag-name-close';
        return this.emit('TAG_NAME_OPEN', from, i);
      }
    }
    this.state = 'eof';
    return this.emit('TAG_NAME_OPEN', from, s.length);
  }

  /** An attribute name: its first character is part of it whatever it is ("=x" is a name). */
  private attributeName(): boolean {
    const s = this.input;
    const from = this.pos;
    for (let i = from + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (isHtmlSpace(c) || c === SLASH || c === EQUALS) {
        this.pos = i + 1;
        this.state =
          c === SLASH
            ? 'self-closing-start-tag'
            : c === EQUALS
              ? 'before-attribute-value'
              : 'after-attribute-name';
        return this.emit('ATTR_NAME', from, i);
      }
      if (c === GT) {
        this.pos = i;
        this.state = 'tag-name-close';
        return this.emit('ATTR_NAME', from, i);
      }
    }
    this.pos = s.length;
    this.state = 'eof';
    return this.emit('ATTR_NAME', from, s.length);
  }

  private quotedValue(): boolean {
    const s = this.input;
    if (this.pos > 0) this.pos++; // past the opening quote, unless the input starts inside the value
    const from = this.pos;
    const close = s.indexOf(String.fromCharCode(this.quote), from);
    if (close === -1) {
      this.state = 'eof';
      return this.emit('ATTR_VALUE', from, s.length);
    }
    this.pos = close + 1;
    this.state = 'after-attribute-value-quoted';
    return this.emit('ATTR_VALUE', from, close);
  }

  private unquotedValue(): boolean {
    const s = this.input;
    const from = this.pos;
    for (let i = from; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (isHtmlSpace(c) || c === GT) {
        this.pos = c === GT ? i : i + 1;
        this.state = c === GT ? 'tag-name-close' : 'before-attribute-name';
        return this.emit('ATTR_VALUE', from, i);
      }
    }
    this.state = 'eof';
    return this.emit('ATTR_VALUE', from, s.length);
  }

  /** After `<!`: a DOCTYPE, a CDATA section, a comment, or a bogus comment. */
  private markupDeclaration(): State {
    const s = this.input;
    const p = this.pos;
    if (startsWithAsciiCaseless(s, p, 'doctype')) return 'doctype';
    if (s.startsWith('[CDATA[', p)) {
      this.pos += 7;
      return 'cdata';
    }
    if (s.startsWith('--', p)) {
      this.pos += 2;
      return 'comment';
    }
    return 'bogus-comment';
  }

  /** Emits a comment-like token that ends at `close` and resumes after `length` characters. */
  private emitUntil(type: HtmlTokenType, close: number, length: number): true {
    const from = this.pos;
    if (close === -1) {
      this.pos = this.input.length;
      this.state = 'eof';
      return this.emit(type, from, this.input.length);
    }
    this.pos = close + length;
    this.state = 'data';
    return this.emit(type, from, close);
  }
}
