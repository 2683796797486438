// The pre-issue-40 detector, kept only so that a property test can compare its decisions with the
// libinjection-model detector in ../xss.ts (differences: testdata/libinjection/xss-legacy-differences.json).
// It read the value as if spliced into an HTML page — as text, among a tag's attributes,
// and inside an unquoted, '…', "…" or `…` attribute value — and flags it when any reading opens a tag that runs or loads
// code, an event-handler, namespace or script-URL attribute, a document-type declaration, an XML
// processing instruction or an IE conditional comment (xss-rules.ts).
// Example rule: SecRule ARGS "@detectXSS" "id:941100,phase:2,block,t:none,t:urlDecodeUni,…"

import { type HtmlContext, type HtmlVisitor, scanHtml } from './html-scanner.ts';
import { DANGEROUS_DECLARATIONS, isDangerousAttribute, isDangerousTag } from './xss-rules.ts';

const DANGER: HtmlVisitor = {
  tag: isDangerousTag,
  attribute: isDangerousAttribute,
  declaration(kind, head) {
    const lower = head.toLowerCase();
    if (kind === '?') return lower.startsWith('xml') || lower.startsWith('import');
    if (lower.startsWith('--')) return lower.startsWith('--[if') || lower.startsWith('--<![if');
    return lower.startsWith('[if') || DANGEROUS_DECLARATIONS.some((word) => lower.startsWith(word));
  },
};

const QUOTES: readonly HtmlContext[] = ["'", '"', '`'];

export function legacyDetectXSS(input: string): boolean {
  if (input.includes('<') && scanHtml(input, 'text', DANGER)) return true;
  if (!input.includes('=')) return false;
  if (scanHtml(input, 'tag', DANGER) || scanHtml(input, 'unquoted', DANGER)) return true;
  for (const quote of QUOTES) {
    if (input.includes(quote) && scanHtml(input, quote, DANGER)) return true;
  }
  return false;
}
