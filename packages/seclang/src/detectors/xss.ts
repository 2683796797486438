// @detectXSS: reads the value as if spliced into an HTML page — as text, between a tag's
// attributes, and inside a '…', "…" or `…` attribute value — and flags it when any reading meets
// a DOCTYPE, a dangerous tag, an on*/xmlns attribute with a value, a style value, a script or
// data URL, or a comment IE or XML acts on (xss-rules.ts). It reaches libinjection's decision
// (ModSecurity's @detectXSS) on every libinjection test vector (testdata/libinjection/xss-*.json).
// Example rule: SecRule ARGS "@detectXSS" "id:941100,phase:2,block,t:none,t:urlDecodeUni,…"

import { type HtmlStart, HtmlTokenizer } from './html-tokenizer.ts';
import {
  type AttributeKind,
  attributeKind,
  isDangerousComment,
  isDangerousTag,
  isDangerousUrl,
} from './xss-rules.ts';

const QUOTES: readonly HtmlStart[] = ["'", '"', '`'];

export function detectXSS(input: string): boolean {
  // Without "<" the text reading is one text token; without its quote a value reading is one value;
  // without "<" and "=" no reading opens a tag, a comment or an attribute value.
  const lt = input.includes('<');
  if (!lt && !input.includes('=')) return false;
  if (lt && readsAsXss(input, 'data')) return true;
  if (readsAsXss(input, 'attributes')) return true;
  for (const quote of QUOTES) {
    if (input.includes(quote) && readsAsXss(input, quote)) return true;
  }
  return false;
}

/** Tokenizes `input` from `start` and judges each token. */
export function readsAsXss(input: string, start: HtmlStart): boolean {
  const tokens = new HtmlTokenizer(input, start);
  let attribute: AttributeKind = 'none'; // the kind of the attribute whose value may come next
  while (tokens.next()) {
    const { type, start: from, end } = tokens;
    if (type === 'ATTR_VALUE') {
      if (isDangerousValue(attribute, input, from, end)) return true;
      attribute = 'none';
      continue;
    }
    attribute = 'none';
    if (type === 'DOCTYPE') return true;
    if (type === 'TAG_NAME_OPEN' && isDangerousTag(input, from, end)) return true;
    if (type === 'ATTR_NAME') attribute = attributeKind(input, from, end);
    if (type === 'TAG_COMMENT' && isDangerousComment(input, from, end)) return true;
  }
  return false;
}

function isDangerousValue(kind: AttributeKind, input: string, from: number, end: number): boolean {
  switch (kind) {
    case 'none':
      return false;
    case 'always':
    case 'style':
      return true;
    case 'url':
      return isDangerousUrl(input, from, end);
    case 'indirect':
      return attributeKind(input, from, end) !== 'none';
  }
}
