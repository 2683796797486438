// @detectSQLi: libinjection's model of SQL injection, in our own code over libinjection's data.
// The value is tokenized and folded into a fingerprint of at most five token types (`1&1` for
// `1 AND 1=2`), read as is and as if it continued a '…' or "…" literal, in ANSI SQL and, where a
// `#` or `--x` makes the dialect matter, in MySQL. A reading whose fingerprint is on the attack
// list (libinjection-data/fingerprints.txt) and passes sqli-verdict.ts's checks is a match.
// Example rule: SecRule ARGS "@detectSQLi" "id:942100,phase:2,block,capture,…"

import { Folder } from './sqli-fold.ts';
import { type QuoteMode, ScanState } from './sqli-scan.ts';
import { TOKEN } from './sqli-token.ts';
import { isInjection, type Reading } from './sqli-verdict.ts';

export interface SqliResult {
  match: boolean;
  /** Fingerprint of the matching reading, e.g. `s&sos` for `x' or 'a'='a`. */
  fingerprint?: string;
}

const NO_MATCH: SqliResult = Object.freeze({ match: false });

interface ReadingWithDialectHint extends Reading {
  /** A `#` or `--x` was read: the MySQL reading may differ. */
  mysqlMayDiffer: boolean;
}

// One state for every reading: detection is synchronous and never re-entered.
const st = new ScanState();
const folder = new Folder(st);

/** Tokenizes and folds one reading of the input into its fingerprint (tokens valid until the next call). */
export function readSql(input: string, quote: QuoteMode, mysql: boolean): ReadingWithDialectHint {
  st.reset(input, quote, mysql);
  folder.reset();
  const count = folder.fold();
  const tokens = folder.tokens;
  const last = tokens[count - 1];
  // PHP's unclosed empty backtick at the end acts as a comment
  if (
    count > 2 &&
    last!.type === TOKEN.bareword &&
    last!.strOpen === '`' &&
    last!.val === '' &&
    last!.strClose === ''
  ) {
    last!.type = TOKEN.comment;
  }
  let fingerprint = '';
  for (let i = 0; i < count; i++) fingerprint += tokens[i]!.type;
  if (fingerprint.includes(TOKEN.evil)) {
    // unparsable (nested comments, MySQL's /*! …): one evil token
    fingerprint = TOKEN.evil;
    tokens[0]!.type = TOKEN.evil;
    tokens[0]!.val = TOKEN.evil;
    tokens[1]!.type = '';
  }
  return {
    input,
    fingerprint,
    tokens,
    tokenCount: st.tokenCount,
    mysqlMayDiffer: st.dashCommentNoSpace > 0 || st.hashSeen > 0,
  };
}

function matched(r: Reading): SqliResult | undefined {
  return isInjection(r) ? { match: true, fingerprint: r.fingerprint } : undefined;
}

/** ANSI first; MySQL when the ANSI reading saw a `#` or `--x`. */
function readBothDialects(input: string, quote: QuoteMode): SqliResult | undefined {
  const ansi = readSql(input, quote, false);
  return matched(ansi) ?? (ansi.mysqlMayDiffer ? matched(readSql(input, quote, true)) : undefined);
}

export function detectSQLi(input: string): SqliResult {
  // one character makes at most one token, and no one-letter fingerprint but X (from /*!) is listed
  if (input.length < 2) return NO_MATCH;
  return (
    readBothDialects(input, '') ??
    (input.includes("'") ? readBothDialects(input, "'") : undefined) ??
    (input.includes('"') ? matched(readSql(input, '"', true)) : undefined) ??
    NO_MATCH
  );
}
