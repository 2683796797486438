// The HTML5 tokenizer that the XSS detector reads markup with. It follows the token model of
// libinjection's tokenizer (the one ModSecurity's @detectXSS and CRS 941100 use), forgiving and
// IE-aware as that one is: NUL bytes count as white space between attributes and are skipped in
// tag names, `<%…%>` is a comment, a back-quote opens an attribute value, and an end tag with
// attributes (`</a b>`) reports its name as an opening one. Tokens are offsets into the input;
// every state either consumes input or emits a token, so one pass is linear.

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
  | 'attribute-name'
  | 'after-attribute-name'
  | 'before-attribute-value'
  | 'attribute-value-quoted'
  | 'attribute-value-unquoted'
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
const DASH = 45;
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
    const s = this.input;
    const n = s.length;
    let state = this.state;
    for (;;) {
      switch (state) {
        case 'data': {
          const lt = s.indexOf('<', this.pos);
          if (lt === -1) {
            this.state = 'eof';
            return this.emit('DATA_TEXT', this.pos, n) && n > this.start;
          }
          const from = this.pos;
          this.pos = lt + 1;
          this.state = 'tag-open';
          if (lt > from) return this.emit('DATA_TEXT', from, lt);
          state = 'tag-open';
          break;
        }
        case 'tag-open': {
          if (this.pos >= n) return false; // a "<" that ends the input
          const c = s.charCodeAt(this.pos);
          if (c === BANG || c === QUESTION || c === PERCENT) {
            this.pos++;
            state =
              c === BANG ? 'markup-declaration-open' : c === QUESTION ? 'bogus-comment' : 'percent-comment';
          } else if (c === SLASH) {
            this.pos++;
            this.inEndTag = true;
            state = 'end-tag-open';
          } else if (isAsciiLetter(c) || c === 0) {
            state = 'tag-name';
          } else {
            this.state = 'data'; // a lone "<" is text
            return this.emit('DATA_TEXT', this.pos - 1, this.pos);
          }
          break;
        }
        case 'end-tag-open': {
          if (this.pos >= n) return false;
          const c = s.charCodeAt(this.pos);
          if (c === GT) state = 'data';
          else if (isAsciiLetter(c)) state = 'tag-name';
          else {
            this.inEndTag = false;
            state = 'bogus-comment';
          }
          break;
        }
        case 'tag-name':
          return this.tagName();
        case 'tag-name-close':
          this.inEndTag = false;
          this.pos++;
          this.state = this.pos < n ? 'data' : 'eof';
          return this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
        case 'before-attribute-name':
        case 'after-attribute-name': {
          const c = this.skipSpaces();
          if (c === -1) return false;
          if (c === SLASH) {
            this.pos++;
            state = 'self-closing-start-tag';
          } else if (c === EQUALS && state === 'after-attribute-name') {
            this.pos++;
            state = 'before-attribute-value';
          } else if (c === GT && state === 'before-attribute-name') {
            this.state = 'data'; // the end-tag flag is kept here
            this.pos++;
            return this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
          } else if (c === GT) {
            state = 'tag-name-close';
          } else {
            return this.attributeName();
          }
          break;
        }
        case 'before-attribute-value': {
          const c = this.skipSpaces();
          if (c === -1) {
            this.state = 'eof';
            return false;
          }
          if (c === 34 || c === 39 || c === 96) {
            this.quote = c;
            state = 'attribute-value-quoted';
          } else {
            return this.unquotedValue();
          }
          break;
        }
        case 'attribute-value-quoted':
          return this.quotedValue();
        case 'after-attribute-value-quoted':
        case 'self-closing-start-tag': {
          if (this.pos >= n) return false;
          const c = s.charCodeAt(this.pos);
          if (c === GT) {
            const selfClosing = state === 'self-closing-start-tag';
            this.state = 'data';
            this.pos++;
            return selfClosing
              ? this.emit('TAG_NAME_SELFCLOSE', this.pos - 2, this.pos)
              : this.emit('TAG_NAME_CLOSE', this.pos - 1, this.pos);
          }
          if (state === 'after-attribute-value-quoted' && c === SLASH) {
            this.pos++;
            state = 'self-closing-start-tag';
          } else {
            if (state === 'after-attribute-value-quoted' && isHtmlSpace(c)) this.pos++;
            state = 'before-attribute-name';
          }
          break;
        }
        case 'markup-declaration-open':
          state = this.markupDeclaration();
          break;
        case 'comment':
          return this.comment();
        case 'bogus-comment':
          return this.untilGreaterThan('TAG_COMMENT');
        case 'percent-comment':
          return this.percentComment();
        case 'cdata':
          return this.cdata();
        case 'doctype':
          return this.untilGreaterThan('DOCTYPE');
        case 'eof':
          return false;
      }
    }
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

  /** A comment ends at "-->" or "-!>" (NULs may sit after the first dash) or at the end. */
  private comment(): boolean {
    const s = this.input;
    const n = s.length;
    const from = this.pos;
    let dash = s.indexOf('-', from);
    while (dash !== -1 && dash <= n - 3) {
      let i = dash + 1;
      while (i < n && s.charCodeAt(i) === 0) i++;
      if (i === n) break;
      const c = s.charCodeAt(i);
      if ((c === DASH || c === BANG) && i + 1 < n && s.charCodeAt(i + 1) === GT) {
        this.pos = i + 2;
        this.state = 'data';
        return this.emit('TAG_COMMENT', from, dash);
      }
      if ((c === DASH || c === BANG) && i + 1 === n) break;
      dash = s.indexOf('-', dash + 1);
    }
    this.state = 'eof';
    return this.emit('TAG_COMMENT', from, n);
  }

  /** `<%…%>`, a comment in old IE and Safari. */
  private percentComment(): boolean {
    const s = this.input;
    const from = this.pos;
    const close = s.indexOf('%>', from);
    if (close === -1) {
      this.pos = s.length;
      this.state = 'eof';
      return this.emit('TAG_COMMENT', from, s.length);
    }
    this.pos = close + 2;
    this.state = 'data';
    return this.emit('TAG_COMMENT', from, close);
  }

  /** `<![CDATA[…]]>` reads as text. */
  private cdata(): boolean {
    const s = this.input;
    const from = this.pos;
    const close = s.indexOf(']]>', from);
    if (close === -1) {
      this.state = 'eof';
      return this.emit('DATA_TEXT', from, s.length);
    }
    this.pos = close + 3;
    this.state = 'data';
    return this.emit('DATA_TEXT', from, close);
  }

  /** A bogus comment (`<?…>`, `<!x…>`, `</ …>`) or a DOCTYPE: up to the next ">". */
  private untilGreaterThan(type: HtmlTokenType): boolean {
    const s = this.input;
    const from = this.pos;
    const close = s.indexOf('>', from);
    if (close === -1) {
      this.pos = s.length;
      this.state = 'eof';
      return this.emit(type, from, s.length);
    }
    this.pos = close + 1;
    this.state = 'data';
    return this.emit(type, from, close);
  }
}
